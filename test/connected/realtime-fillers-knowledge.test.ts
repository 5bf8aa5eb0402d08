/**
 * Invariant: on a realtime phone call (OpenAI Realtime and Gemini Live stand-ins), a function call whose HTTP
 * tool is still running after the filler delay, with the model quiet, gets one of the agent's filler phrases
 * in the cascade's voice, heard before the model's answer and kept in history like any utterance; a tool that
 * answers in time gets none. An agent with `auto` knowledge has each caller turn searched before the model
 * answers: the passages reach the model as a system item before `response.create` (OpenAI, which is told not
 * to answer by itself), and its answer carries the document's fact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { DEFAULT_VOICE } from '../../lib/domain/agent.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { defaultRealtimeReply, type RealtimeReply, type RealtimeScriptRequest } from '../../lib/local/standins/openai-realtime.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { eventually } from '../support/calls.js';
import { WAIT_MS } from '../support/progress.js';
import { briefReplies, REALTIME_AGENTS, startVoicePlatform, transcriptOf, waitUntil, type VoicePlatform } from './voice-harness.js';

let vp: VoicePlatform;
let slow: ToolBackend;
let fast: ToolBackend;
const FILLER = 'One sec.';
const PROVIDERS = {
  openai: { realtime: REALTIME_AGENTS.openai, control: () => vp.platform.voice!.realtime!.control },
  google: { realtime: REALTIME_AGENTS.google, control: () => vp.platform.voice!.geminiLive!.control },
} as const;

/** The "model": asks for the stock lookup named in its script, then reads the tool's answer. */
const stockModel = (tool: string) => (r: RealtimeScriptRequest): RealtimeReply => {
  const last = r.items.at(-1);
  if (last?.role === 'tool' && /in_stock/.test(last.text)) return { text: 'In stock.' };
  if (last?.role === 'user' && /chair/.test(last.text)) return { toolCall: { name: tool, arguments: '{"item":"chair"}' } };
  return defaultRealtimeReply(r);
};

beforeAll(async () => {
  // The slow backend answers well after the filler delay and well before the tool timeout.
  slow = await startToolBackend('{"in_stock":true}', 3_000);
  fast = await startToolBackend('{"in_stock":true}');
  process.env.TOOL_ALLOWED_HOSTS = [slow, fast].map((s) => `127.0.0.1:${s.port}`).join(',');
  vp = await startVoicePlatform({
    stt: { transcripts: () => 'Hello?', finalDelayMs: 50 },
    llm: { ttftMs: 50, tokensPerSecond: 400, reply: briefReplies(() => 'Cascade.') },
    tts: { firstByteDelayMs: 20, realtimeFactor: 8 },
    realtime: { firstAudioDelayMs: 50, stt: { finalDelayMs: 50 } },
    geminiLive: { firstAudioDelayMs: 50, stt: { finalDelayMs: 50 } },
    session: { fillerAfterMs: 1_000, fillerPhrases: [FILLER], toolTimeoutMs: 5_000 },
  });
  for (const [name, backend] of [['Slow stock', slow], ['Fast stock', fast]] as const) {
    const created = await vp.api('POST', '/api/tools', {
      name,
      type: 'http',
      description: `${name} lookup`,
      config: { method: 'GET', url: `http://127.0.0.1:${backend.port}/stock?item={item}` },
      parameters: [{ name: 'item', description: 'item', required: true }],
      workspaceId: vp.workspaceId,
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  await vp?.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
  for (const s of [slow, fast]) s?.server.close();
});

/**
 * A call to a realtime agent whose caller asks about the chair once and hears `utterances` played out (a
 * mark is echoed per utterance: the greeting, a filler, the answer).
 */
async function askAboutTheChair(provider: keyof typeof PROVIDERS, tool: string, utterances: number, beforeAsking?: () => void) {
  PROVIDERS[provider].control().setScript({ firstAudioDelayMs: 50, stt: { transcripts: () => 'Is the chair in stock?', finalDelayMs: 50 }, reply: stockModel(tool) });
  const agent = await vp.agent({ realtime: PROVIDERS[provider].realtime, first_message: 'Hi.' });
  const caller = await vp.call(agent);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  beforeAsking?.();
  await caller.play(tone(600));
  await waitUntil(() => (caller.echoed.filter((e) => !e.flushed).length >= utterances ? true : undefined));
  await caller.whenIdle();
  await caller.pause(200);
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  return { transcript: await transcriptOf(vp, ended.callId), ended };
}

describe.each(['openai', 'google'] as const)('fillers on a realtime call (%s)', (provider) => {
  it('says the filler in the cascade voice before the answer of a slow tool', async () => {
    const tts = vp.platform.voice.tts.control.elevenlabs!;
    const fillerSockets = () => tts.connections.filter((c) => [...c.contexts.values()].some((x) => x.segments.some((g) => g.text.includes(FILLER))));
    const before = fillerSockets();
    const { transcript } = await askAboutTheChair(provider, 'slow_stock', 3);
    expect(slow.seen.map((r) => r.url)).toContain('/stock?item=chair');
    // The filler was the cascade's voice: the agent's TTS voice synthesized it, on the call's warm socket.
    const spoken = fillerSockets().filter((c) => !before.includes(c));
    expect(spoken).toHaveLength(1);
    expect(spoken[0]!.path).toContain(DEFAULT_VOICE.elevenlabs);
    expect(transcript).toEqual(['agent: Hi.', 'user: Is the chair in stock?', `agent: ${FILLER}`, 'agent: In stock.']);
  });

  it('says no filler when the tool answers in time', async () => {
    const { transcript } = await askAboutTheChair(provider, 'fast_stock', 2);
    expect(transcript).toEqual(['agent: Hi.', 'user: Is the chair in stock?', 'agent: In stock.']);
  });

  it('goes on without the filler when the cascade voice is down, and the model answers', async () => {
    const tts = vp.platform.voice.tts.control.elevenlabs!;
    try {
      // The warm socket is cut and every reconnect refused: the filler cannot be spoken.
      const { transcript, ended } = await askAboutTheChair(provider, 'slow_stock', 2, () => {
        tts.refuseNext(1_000, 503);
        tts.dropConnections();
      });
      expect(ended.outcome.reason).toBe('customer_hangup');
      expect(transcript.filter((line) => line !== `agent: ${FILLER}`)).toEqual(['agent: Hi.', 'user: Is the chair in stock?', 'agent: In stock.']);
      const events = (await vp.api('GET', `/api/history/${ended.callId}/events`, undefined)).body as { data: { type: string; [k: string]: unknown }[] };
      expect(events.data.filter((e) => e.type === 'error')).toEqual([expect.objectContaining({ stage: 'tts', fatal: false })]);
    } finally {
      tts.refuseNext(0);
    }
  });
});

/** The "model": answers a caller from the first passage of the last text the call added, else says it does not know. */
function fromPassages(r: RealtimeScriptRequest): RealtimeReply {
  const last = r.items.at(-1);
  const excerpt = last?.role === 'system' ? /\[1\] \([^)]*\)\n([\s\S]*?)(?:\n\n\[2\]|$)/.exec(last.text)?.[1]?.replace(/\n/g, ' ') : undefined;
  if (excerpt) return { text: `From the documents: ${excerpt}` };
  return r.responseInstructions ? defaultRealtimeReply(r) : { text: 'I do not know.' };
}

describe('auto knowledge on a realtime call', () => {
  let kbId = '';
  beforeAll(async () => {
    const created = (await vp.api('POST', '/api/knowledge-bases', { name: 'Front desk' })) as { status: number; body: { _id: string } };
    expect(created.status).toBe(201);
    kbId = created.body._id;
    const doc = (await vp.api('POST', `/api/knowledge-bases/${kbId}/documents`, { name: 'Parking', text: 'Parking is on Harbor Street.' })) as { status: number; body: { _id: string } };
    expect(doc.status).toBe(201);
    const ready = await eventually(async () => {
      const got = (await vp.api('GET', `/api/knowledge-bases/${kbId}/documents/${doc.body._id}`, undefined)) as { body: { status: string } };
      return got.body.status === 'processing' ? undefined : got.body.status;
    }, WAIT_MS, 'the document indexed');
    expect(ready).toBe('ready');
  });

  // Gemini's transcript of the caller may come after its own answer has begun (400 ms): that answer is held too.
  it.each([
    ['openai', 50],
    ['google', 50],
    ['google', 400],
  ] as const)('gives the model the passages of the caller turn before it answers (%s, transcript after %i ms)', async (provider, transcriptMs) => {
    const control = PROVIDERS[provider].control();
    control.setScript({ firstAudioDelayMs: 50, stt: { transcripts: () => 'Where can I park?', finalDelayMs: transcriptMs }, reply: fromPassages });
    const sessionsBefore = control.received.length;
    const agent = await vp.agent({ realtime: PROVIDERS[provider].realtime, first_message: 'Hi.', knowledge_base_ids: [kbId], knowledge_base_mode: 'auto' });
    const caller = await vp.call(agent);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    await caller.play(tone(600));
    await waitUntil(() => (caller.echoed.filter((e) => !e.flushed).length >= 2 ? true : undefined));
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(await transcriptOf(vp, ended.callId)).toEqual(['agent: Hi.', 'user: Where can I park?', 'agent: From the documents: Parking is on Harbor Street.']);
    // Nothing was cut on the line: no answer without the passages started playing.
    expect(caller.received.filter((m) => m.event === 'clear')).toEqual([]);
    const events = control.received[sessionsBefore]!.map((r) => r.event as Record<string, any>);
    if (provider === 'openai') {
      // The model does not answer by itself; the passages go in as a system item, then the answer is asked for.
      expect(events.find((e) => e.type === 'session.update')!.session.audio.input.turn_detection).toMatchObject({ type: 'server_vad', create_response: false, interrupt_response: true });
      const context = events.findIndex((e) => e.type === 'conversation.item.create' && e.item.role === 'system');
      expect(events[context]!.item).toMatchObject({ type: 'message', role: 'system', content: [{ type: 'input_text' }] });
      expect(events[context]!.item.content[0].text).toContain('Parking is on Harbor Street.');
      expect(events.slice(context + 1).map((e) => e.type)).toContain('response.create');
    } else {
      // The model's own answer (without the passages: "I do not know.") was held, never heard, and replaced
      // by the answer to the passages, sent as a complete text turn.
      const context = events.find((e) => e.clientContent && JSON.stringify(e.clientContent).includes('Harbor Street'));
      expect(context!.clientContent).toMatchObject({ turns: [{ role: 'user' }], turnComplete: true });
      expect(context!.clientContent.turns[0].parts[0].text).toContain('Parking is on Harbor Street.');
    }
    const record = (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
    expect(record.knowledge[0]).toMatchObject({ mode: 'auto', query: 'Where can I park?' });
  });
});
