/**
 * Invariant: during a text chat and a phone call, the model is offered an `mcp` tool's allowed server tools
 * (named `<tool>__<server tool>`, the server's input schema as the parameters) and calling one runs it on
 * the real MCP SDK server through our client: the server's answer reaches the model, which uses it in its
 * reply; the same call with the same arguments within one conversation runs once; a tool that answers an
 * error and a server that is down are each a clean tool error for that turn, and the conversation goes on.
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';
import { startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';
import { toolModel } from '../support/tool-model.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
let weather: TestMcpServer;
let gone: TestMcpServer;

beforeAll(async () => {
  [weather, gone] = await Promise.all([startMcpServer(), startMcpServer()]);
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${weather.port},127.0.0.1:${gone.port}`;
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => ['What is the weather in Paris?', 'Is the weather service broken?'][utterance] ?? 'Bye.', finalDelayMs: 50 },
    llm: toolModel({
      ttftMs: 20,
      summary: 'Weather questions.',
      afterTool: (content) => {
        const forecast = /Sunny and 24 degrees in (\w+)/.exec(content);
        if (forecast) return `Tomorrow in ${forecast[1]}: sunny, 24 degrees.`;
        if (/weather service is down/.test(content)) return 'The weather service is down.';
        if (/could not be reached/.test(content)) return 'I could not reach the backup.';
        return 'No idea.';
      },
      call: (last) => {
        if (/weather in paris/i.test(last)) return { name: 'weather__get_forecast', arguments: { city: 'Paris' } };
        if (/broken/i.test(last)) return { name: 'weather__fail_always', arguments: {} };
        if (/backup/i.test(last)) return { name: 'backup__get_forecast', arguments: { city: 'Rome' } };
        return undefined;
      },
    }),
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
  const tools = [
    { name: 'Weather', url: weather.url, allowed_tools: ['get_forecast', 'fail_always'] },
    { name: 'Backup', url: gone.url },
  ];
  for (const tool of tools) {
    const { name, ...config } = tool;
    const res = await vp.api('POST', '/api/tools', { name, type: 'mcp', description: `${name} forecasts`, config: { ...config, headers: { Authorization: 'Bearer w-1' } }, workspaceId: vp.workspaceId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  // The backup server goes away after it was saved: its tools stay offered, and calling one fails cleanly.
  await gone.close();
});
afterAll(async () => {
  await vp?.stop();
  await weather?.close();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

/** Asks one chat message and returns the reply's text. */
async function ask(ws: WebSocket, received: { type: string; text?: string }[], text: string): Promise<string> {
  const from = received.length;
  ws.send(JSON.stringify({ type: 'message', text }));
  await waitUntil(() => received.slice(from).find((f) => f.type === 'reply' || f.type === 'error'), WAIT_MS);
  const reply = received.slice(from).find((f) => f.type === 'reply' || f.type === 'error')!;
  return reply.text ?? JSON.stringify(reply);
}

describe('mcp tools in a conversation', () => {
  it('a chat offers the allowed server tools, runs one on the server and answers with its result', async () => {
    const agent = await vp.agent({ first_message: 'Hi.' });
    const res = await fetch(`${vp.platform.baseUrl}/api/chats`, { method: 'POST', headers: { 'x-api-key': vp.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ agentId: agent._id }) });
    const chat = (await res.json()) as { credential: string; chatUrl: string };
    expect(res.status).toBe(201);
    const ws = new WebSocket(chat.chatUrl);
    const received: { type: string; text?: string }[] = [];
    ws.on('message', (data) => received.push(JSON.parse(String(data)) as { type: string }));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'hello', credential: chat.credential }));
    await waitUntil(() => received.find((f) => f.type === 'ready'), WAIT_MS);
    const callsBefore = weather.calls.length;

    expect(await ask(ws, received, 'What is the weather in Paris?')).toBe('Tomorrow in Paris: sunny, 24 degrees.');
    expect(weather.calls.slice(callsBefore)).toEqual([{ name: 'get_forecast', args: { city: 'Paris' } }]);
    // Asked again: the same tool and arguments within the conversation get the first result, no second call.
    expect(await ask(ws, received, 'What is the weather in Paris?')).toBe('Tomorrow in Paris: sunny, 24 degrees.');
    expect(weather.calls.slice(callsBefore)).toHaveLength(1);
    // The tool's error and the server that is gone: clean failures, and the chat answers the next message.
    expect(await ask(ws, received, 'Is the weather service broken?')).toBe('The weather service is down.');
    expect(await ask(ws, received, 'Ask the backup then.')).toBe('I could not reach the backup.');
    expect(await ask(ws, received, 'Thanks')).toBe('Okay.');
    ws.close();

    const request = vp.platform.voice.llm.control.requestsFor('openai').at(-1)!.body as { tools: { function: { name: string; description: string; parameters: Record<string, unknown> } }[] };
    const offered = request.tools.map((x) => x.function.name);
    expect(offered).toEqual(expect.arrayContaining(['weather__get_forecast', 'weather__fail_always', 'backup__get_forecast', 'backup__slow']));
    // Not on the allow-list: never offered.
    expect(offered).not.toContain('weather__slow');
    const forecast = request.tools.find((x) => x.function.name === 'weather__get_forecast')!.function;
    expect(forecast.description).toBe('The weather forecast for a city.');
    expect(forecast.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    // The tool's secret header reached the server on the tool call too.
    expect(weather.headersSeen.at(-1)?.authorization).toBe('Bearer w-1');
  });

  it('a phone call runs a server tool and speaks its result', async () => {
    const agent = await vp.agent({ first_message: 'Weather desk.' });
    const callsBefore = weather.calls.length;
    const requestsBefore = vp.platform.voice.llm.control.requestsFor('openai').length;
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'mark');
    await caller.whenIdle();
    for (let turn = 0; turn < 2; turn += 1) {
      const before = caller.echoed.length;
      await caller.play(tone(300));
      await waitUntil(() => (vp.platform.voice.llm.control.requestsFor('openai').length >= requestsBefore + (turn + 1) * 2 ? true : undefined));
      await waitUntil(() => (caller.echoed.length > before ? true : undefined));
      await caller.whenIdle();
      await caller.pause(300);
      await caller.whenIdle();
    }
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(weather.calls.slice(callsBefore)).toEqual([
      { name: 'get_forecast', args: { city: 'Paris' } },
      { name: 'fail_always', args: {} },
    ]);
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, unknown>;
    const lines = String(record.callTranscript).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'agent: Weather desk.',
      'user: What is the weather in Paris?',
      'agent: Tomorrow in Paris: sunny, 24 degrees.',
      'user: Is the weather service broken?',
      'agent: The weather service is down.',
    ]);
  });
});
