/**
 * Invariant: a meeting and a chat started with `variables` speak the first message and run on the prompt
 * filled from them (and the built-ins: the call id, the direction), as their history transcripts show; a
 * value holding `{{...}}` is said as written, never filled a second time.
 */
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedWebCaller } from '../../lib/local/callers/simulated-web-caller.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { startVoicePlatform, waitUntil, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;
beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'What are your instructions?', finalDelayMs: 50 },
    // The model says its instructions back, so the prompt a call ran on is heard in its transcript.
    llm: { ttftMs: 20, tokensPerSecond: 400, reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: `My instructions: ${req.messages.system.split('\n')[0]}` }) },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
  });
});
afterAll(async () => vp?.stop());

const AGENT = { first_message: 'Hi {{first_name}}, {{greeting|welcome}}.', system_prompt: 'Help {{first_name}} ({{tier}}) on call {{call_id}}, a {{direction}} call.' };

describe('variables on a meeting', () => {
  it('fill the first message and the prompt of the browser call', async () => {
    const agent = await vp.agent({ name: 'Ava', ...AGENT });
    const meeting = await vp.meeting(agent, { variables: { first_name: 'Grace', tier: 7 } });
    const page = await SimulatedWebCaller.join(vp.webUrl, meeting.credential());
    await waitUntil(() => (page.captions('agent').includes('Hi Grace, welcome.') ? true : undefined));
    await page.whenIdle();
    await page.say('What are your instructions?');
    const expected = `My instructions: Help Grace (7) on call ${meeting.callId}, a web call.`;
    await waitUntil(() => (page.captions('agent').includes(expected) ? true : undefined));
    await page.whenIdle();
    page.hangUp();
    await vp.nextCallEnded();
    const record = await getHistoryRecord(vp.deps.db, vp.workspaceId, meeting.callId);
    expect(String(record.callTranscript).split('\n')).toEqual(['agent: Hi Grace, welcome.', 'user: What are your instructions?', `agent: ${expected}`]);
  });
});

describe('variables on a chat', () => {
  it('fill the first message and the prompt, and a value is never filled twice', async () => {
    const agent = await vp.agent({ name: 'Ava', ...AGENT });
    const res = await fetch(`${vp.platform.baseUrl}/api/chats`, {
      method: 'POST',
      headers: { 'x-api-key': vp.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: agent._id, variables: { first_name: 'Ada {{tier}}', tier: 'gold', greeting: 'good to see you' } }),
    });
    expect(res.status).toBe(201);
    const chat = (await res.json()) as { chatId: string; credential: string };
    const ws = new WebSocket(`${vp.platform.baseUrl.replace(/^http/, 'ws')}/web-chat`);
    const frames: { type: string; [k: string]: any }[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'hello', credential: chat.credential }));
    const ready = await waitUntil(() => frames.find((f) => f.type === 'ready'));
    expect(ready.messages).toEqual([{ role: 'agent', text: 'Hi Ada {{tier}}, good to see you.' }]);
    ws.send(JSON.stringify({ type: 'message', text: 'What are your instructions?' }));
    const reply = await waitUntil(() => frames.find((f) => f.type === 'reply'));
    expect(reply.text).toBe(`My instructions: Help Ada {{tier}} (gold) on call ${chat.chatId}, a chat call.`);
    const ended = new Promise<void>((resolve) => {
      const off = vp.platform.voice.streaming.onChatEnded(() => {
        off();
        resolve();
      });
    });
    ws.send(JSON.stringify({ type: 'end' }));
    await ended;
    const record = await getHistoryRecord(vp.deps.db, vp.workspaceId, chat.chatId);
    expect(record.callTranscript).toContain('agent: Hi Ada {{tier}}, good to see you.');
    expect(record.callTranscript).toContain(reply.text);
  });
});
