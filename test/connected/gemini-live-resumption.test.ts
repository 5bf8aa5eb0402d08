/**
 * Invariant: a Gemini Live call outlives its connection. When the stand-in's connection reaches its lifetime
 * mid-call (a `goAway` with `timeLeft`, then the close, as Google does at about 10 minutes), the call moves to
 * a new connection with the newest resumption handle and goes on in the same model session: the model still
 * knows what the caller said before (the stand-in restores the conversation under the handle), the caller's
 * words spoken while the new connection sets up reach the model after it (buffered, not lost), the history
 * has the whole transcript and the timeline no fallback. When the server refuses the handle, the cascade
 * takes the call over with the conversation so far, as for a dropped socket.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tone } from '../../lib/local/callers/simulated-caller.js';
import { defaultRealtimeReply, type RealtimeScriptRequest } from '../../lib/local/standins/openai-realtime.js';
import { REALTIME_AGENTS, startRealtimePlatform, transcriptOf, type VoicePlatform, waitUntil } from './voice-harness.js';
import { WAIT_MS } from '../support/progress.js';

let vp: VoicePlatform;
const GEMINI = REALTIME_AGENTS.google;
const live = () => vp.platform.voice!.geminiLive!.control;

/** The model repeats every caller turn in its context: what it remembers, across connections. */
const remembers = (r: RealtimeScriptRequest) =>
  r.responseInstructions ? defaultRealtimeReply(r) : { text: `You said: ${r.items.filter((i) => i.role === 'user').map((i) => i.text).join(' | ')}` };
/** The caller's lines in order, across the call's connections (each connection's recognizer starts afresh). */
const lines = (list: string[]) => {
  let n = 0;
  return () => list[Math.min(n++, list.length - 1)]!;
};

beforeAll(async () => {
  vp = await startRealtimePlatform();
});
afterAll(async () => {
  await vp?.stop();
});
beforeEach(() => {
  live().setScript({ firstAudioDelayMs: 50, reply: remembers, stt: { transcripts: lines(['My name is Ada.', 'What is my name?']), finalDelayMs: 50 } });
});

/** Greeting, then the caller's first turn and its answer. */
async function firstTurn() {
  const agent = await vp.agent({ realtime: GEMINI, first_message: 'Hello from Gemini.' });
  const caller = await vp.call(agent);
  await waitUntil(() => caller.echoed.find((e) => !e.flushed));
  await caller.whenIdle();
  let before = caller.received.length;
  await caller.play(tone(600));
  await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
  await caller.whenIdle();
  before = caller.received.length;
  return { caller, before };
}

describe('a Gemini Live call past its connection lifetime', () => {
  it('goes on in the same session on a new connection, the words said during the move kept', async () => {
    const resumedBefore = live().resumed;
    const goAwaysBefore = live().goAways;
    const connectionsBefore = live().received.length;
    const llmBefore = vp.platform.voice!.llm.control.requests.length;
    const { caller } = await firstTurn();

    live().resumeDelayMs = 3_000;
    live().expireNow(5_000);
    await waitUntil(() => (live().resumed > resumedBefore ? true : undefined));
    expect(live().goAways).toBe(goAwaysBefore + 1);
    // The caller speaks while the new connection sets up: its audio waits in the adapter.
    const before = caller.received.length;
    await caller.play(tone(600));
    const resumedLog = live().received.at(-1)!;
    expect(resumedLog.map((e) => Object.keys(e.event)[0])).toEqual(['setup']);
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(vp, ended.callId)).toEqual([
      'agent: Hello from Gemini.',
      'user: My name is Ada.',
      'agent: You said: My name is Ada.',
      'user: What is my name?',
      // The resumed session's model was given the turns of the first connection.
      'agent: You said: My name is Ada. | What is my name?',
    ]);
    const resumedSetup = resumedLog[0]!.event.setup as { sessionResumption?: { handle?: string }; contextWindowCompression?: object };
    expect(resumedSetup.sessionResumption?.handle).toMatch(/^session-/);
    expect(resumedSetup.contextWindowCompression).toEqual({ slidingWindow: {} });
    expect(live().received.length).toBe(connectionsBefore + 2);
    const timeline = ended.outcome.events?.data ?? [];
    expect(timeline.find((e) => e.type === 'vendor_fallback')).toBeUndefined();
    // The cascade's model never answered a turn (a request with the conversation as messages).
    type Message = { role: string; content: string };
    const turns = vp.platform.voice!.llm.control.requests.slice(llmBefore).filter((r) => ((r.body as { messages?: Message[] }).messages ?? []).some((m) => m.role === 'assistant'));
    expect(turns).toEqual([]);
  });

  it('falls back to the cascade when the server refuses the handle', async () => {
    const llmBefore = vp.platform.voice!.llm.control.requests.length;
    const expiredBefore = live().received.length;
    const { caller } = await firstTurn();

    live().refuseResumption = true;
    live().expireNow(1_000);
    // The refused setup is the call's last Gemini connection.
    await waitUntil(() => (live().received.length > expiredBefore + 1 ? true : undefined));
    await caller.pause(300);
    const before = caller.received.length;
    await caller.play(tone(600));
    await caller.waitForNext((m) => m.event === 'mark', WAIT_MS, before);
    await caller.whenIdle();
    await caller.pause(200);
    caller.hangUp();
    const ended = await vp.nextCallEnded();

    expect(await transcriptOf(vp, ended.callId)).toEqual([
      'agent: Hello from Gemini.',
      'user: My name is Ada.',
      'agent: You said: My name is Ada.',
      'user: Are you still there?',
      'agent: Still here.',
    ]);
    const timeline = ended.outcome.events?.data ?? [];
    expect(timeline.find((e) => e.type === 'vendor_fallback')).toMatchObject({ stage: 'realtime', to: 'cascade' });
    type Message = { role: string; content: string };
    const asked = vp.platform.voice!.llm.control.requests.slice(llmBefore).map((r) => ((r.body as { messages: Message[] }).messages ?? []).filter((m) => m.role !== 'system').map((m) => [m.role, m.content]));
    expect(asked.find((m) => m.some(([role]) => role === 'assistant'))).toEqual([
      ['assistant', 'Hello from Gemini.'],
      ['user', 'My name is Ada.'],
      ['assistant', 'You said: My name is Ada.'],
      ['user', 'Are you still there?'],
    ]);
  });
});
