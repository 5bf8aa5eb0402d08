/**
 * Invariant: only real speech interrupts the agent. Through the Twilio-speaking simulated caller, the real
 * STT adapter and its stand-in, and the service's local VAD on the caller's audio:
 * - an "uh-huh" (espeak-ng speech) while the agent speaks neither cuts it (no `clear`) nor becomes a turn
 *   the agent answers; the greeting plays whole and stays whole in the transcript;
 * - a cough (a short burst the recognizer finds no words in) does not cut the agent, nor does the agent's
 *   own voice coming back 30 dB down as line echo;
 * - longer sound without words pauses the agent (`clear`), then it resumes where the caller stopped
 *   hearing it: the whole greeting is heard once, no words repeated, and nothing is answered;
 * - real speech ("Stop, please...") interrupts; history keeps the words of the greeting the caller heard,
 *   marked as cut, then the caller's turn and the answer;
 * - the agent's `interruption` settings are validated by the API (400, nothing stored) and returned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speech, tone, type SimulatedCaller } from '../../lib/local/simulated-caller.js';
import { toneBytes } from '../../lib/local/standins/tts-audio.js';
import { getHistoryRecord } from '../../lib/store/history.js';
import { INTERRUPTED_MARKER } from '../../streaming-service/src/session/speech-handle.js';
import { mediaBytes, startVoicePlatform, type VoicePlatform, waitUntil } from './voice-harness.js';

/**
 * Played in real time (3.8 s), so no longer than the caller's reactions need: each sound starts 0.4 s into
 * it and is heard (or recognized) well before 2 s.
 */
const GREETING = 'Hello and welcome to Luigi, for fresh pasta and pizza.';
/** The greeting real speech cuts (8 s): long enough that it is still playing whatever the load. */
const LONG_GREETING =
  'Hello and welcome to Luigi, where every evening we serve fresh pasta, wood fired pizza and wines from our own cellar.';
const ANSWER = 'Of course.';

let vp: VoicePlatform;
/** What the recognizer "hears" in each utterance of the current test (by utterance index). */
let heard: string[] = [];

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => heard[utterance] ?? '', finalDelayMs: 50 },
    llm: {
      ttftMs: 50,
      tokensPerSecond: 400,
      reply: (req) => (/summar/i.test(req.messages.system) ? { text: 'Summary.' } : { text: ANSWER }),
    },
    // Real-time synthesis: the greeting is still being produced and played while the caller reacts.
    tts: { firstByteDelayMs: 30, realtimeFactor: 1 },
  });
});
afterAll(async () => {
  await vp?.stop();
});

const bytes = (chunks: readonly Uint8Array[]) => chunks.reduce((n, c) => n + c.length, 0);
const clears = (caller: SimulatedCaller) => caller.received.filter((m) => m.event === 'clear').length;
const turnRequests = () => vp.platform.voice.llm.control.requestsFor('openai').filter((r) => !JSON.stringify(r.body).includes('ummar'));

/** Hangs up once the agent is quiet and returns the call's history record. */
async function hangUpAndRead(caller: SimulatedCaller): Promise<Record<string, any>> {
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  return (await getHistoryRecord(vp.deps.db, vp.workspaceId, ended.callId)) as unknown as Record<string, any>;
}

/** Waits until the STT stand-in has sent a transcript containing `text` on its latest connection. */
async function recognized(text: string): Promise<void> {
  const dg = vp.platform.voice.stt.control.deepgram!;
  await waitUntil(() =>
    dg.sessions.at(-1)!.frames.some((f) => f.dir === 'out' && f.kind === 'text' && f.text.includes(text) && f.text.includes('"is_final":true')) || undefined,
  );
}

/** Waits for the greeting's mark to come back played (not flushed). */
const greetingPlayed = (caller: SimulatedCaller) => waitUntil(() => caller.echoed.find((e) => !e.flushed));

describe('interruptions', () => {
  it('does not stop for an "uh-huh", and does not answer it', async () => {
    heard = ['Uh-huh.'];
    const before = turnRequests().length;
    const agent = await vp.agent({ first_message: GREETING });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    await caller.play(await speech('uh-huh'));
    await recognized('Uh-huh');
    await greetingPlayed(caller);
    await caller.whenIdle();
    expect(clears(caller)).toBe(0);
    expect(bytes(caller.heard)).toBe(toneBytes(GREETING));
    const record = await hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
    expect(turnRequests().length).toBe(before);
  }, 60_000);

  it('does not stop for its own voice coming back as line echo (30 dB down)', async () => {
    heard = [];
    // A real voice (espeak-ng): WebRTC's VAD alone calls it speech even 30 dB down.
    vp.platform.voice.tts.control.setScript({ speech: true });
    try {
      const agent = await vp.agent({ first_message: GREETING });
      const caller = await vp.call(agent, { echoGain: 0.03 });
      await greetingPlayed(caller);
      await caller.whenIdle();
      expect(clears(caller)).toBe(0);
      expect(bytes(caller.heard)).toBe(mediaBytes(caller));
      const record = await hangUpAndRead(caller);
      expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
    } finally {
      vp.platform.voice.tts.control.setScript({ speech: false });
    }
  }, 60_000);

  it('does not stop for a cough', async () => {
    heard = [''];
    const agent = await vp.agent({ first_message: GREETING });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    await caller.play(tone(120));
    await greetingPlayed(caller);
    await caller.whenIdle();
    expect(clears(caller)).toBe(0);
    const record = await hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
  }, 60_000);

  it('pauses for sound without words, then resumes where the caller stopped hearing', async () => {
    heard = [''];
    const before = turnRequests().length;
    const agent = await vp.agent({ first_message: GREETING });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(400);
    const noiseAt = caller.received.length;
    await caller.play(tone(900));
    const clear = await caller.waitForNext((m) => m.event === 'clear', 20_000, noiseAt);
    // Audio comes again after the clear: the rest of the greeting.
    const afterClear = caller.received.indexOf(clear) + 1;
    await caller.waitForNext((m) => m.event === 'media', 20_000, afterClear);
    await greetingPlayed(caller);
    await caller.whenIdle();
    // Heard once: what played before the pause plus the resumed rest is the greeting's audio, give or take
    // the playhead estimate's error (two 20 ms frames), never a repeated word.
    expect(Math.abs(bytes(caller.heard) - toneBytes(GREETING))).toBeLessThanOrEqual(320);
    const record = await hangUpAndRead(caller);
    expect(String(record.callTranscript).split('\n')).toEqual([`agent: ${GREETING}`]);
    expect(turnRequests().length).toBe(before);
  }, 60_000);

  it('stops for real speech and keeps the words of the greeting the caller heard', async () => {
    heard = ['Stop, please. I need to talk to a person.'];
    const agent = await vp.agent({ first_message: LONG_GREETING });
    const caller = await vp.call(agent);
    await caller.waitFor((m) => m.event === 'media');
    await caller.pause(1_500);
    const talkAt = caller.received.length;
    await caller.play(await speech('Stop, please. I need to talk to a person.'));
    await caller.waitForNext((m) => m.event === 'clear', 20_000, talkAt);
    await waitUntil(() => caller.echoed.find((e) => !e.flushed));
    await caller.whenIdle();
    const record = await hangUpAndRead(caller);
    const lines = String(record.callTranscript).split('\n');
    expect(lines).toHaveLength(3);
    const cut = lines[0]!.replace(/^agent: /, '');
    expect(cut.endsWith(INTERRUPTED_MARKER)).toBe(true);
    const words = cut.slice(0, -INTERRUPTED_MARKER.length);
    expect(words.length).toBeGreaterThan(0);
    expect(LONG_GREETING.startsWith(words)).toBe(true);
    expect(LONG_GREETING.length).toBeGreaterThan(words.length);
    expect(lines.slice(1)).toEqual(['user: Stop, please. I need to talk to a person.', `agent: ${ANSWER}`]);
  }, 60_000);

  it('validates and returns the agent\'s interruption settings', async () => {
    const base = { name: 'I', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram', workspaceId: vp.workspaceId };
    for (const interruption of [{ min_words: -1 }, { min_duration_ms: 'long' }, { false_interruption_timeout_ms: 50 }, { nope: true }, { backchannels: [''] }]) {
      const bad = await vp.api('POST', '/api/agents', { ...base, interruption });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: expect.any(String) } });
    }
    const interruption = { min_duration_ms: 300, min_words: 3, false_interruption_timeout_ms: 1_000, resume_false_interruption: false, backchannels: ['Vale', 'sí'] };
    const created = await vp.api('POST', '/api/agents', { ...base, interruption });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const got = await vp.api('GET', `/api/agents/${id}?workspaceId=${vp.workspaceId}`, undefined);
    expect((got.body as { interruption: unknown }).interruption).toEqual({ ...interruption, backchannels: ['vale', 'sí'] });
  }, 60_000);
});
