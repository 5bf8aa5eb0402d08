/**
 * Invariant: a caller who stops to think mid-sentence ("I would like to book a table for ... two people
 * tomorrow at seven.") is answered once, to the whole sentence, not in the pause to the half of it, whether
 * the recognizer ends the fragment's turn by endpointing (`speech_final`) or by its utterance-end fallback;
 * a fragment that is a whole answer is answered as before; `turn_taking.unfinished_wait_ms: 0` restores
 * answering at once (docs/voice-pipeline.md, "Turn-taking").
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speech } from '../../lib/local/simulated-caller.js';
import type { Agent } from '../../lib/domain/agent.js';
import { greeted, startVoicePlatform, transcriptOf, type VoicePlatform } from './voice-harness.js';

// Short lines: each is played in real time; what matters is the fragment's last word ("for") and the pause.
const GREETING = 'Hello, Luigi.';
const FIRST = 'A table for';
const REST = 'two at seven.';
const ANSWER = 'Noted.';

let vp: VoicePlatform;
/** The last user turn of every reply request (summaries left out), in order. */
let answered: string[] = [];

beforeAll(async () => {
  vp = await startVoicePlatform({
    stt: { transcripts: ({ utterance }) => (utterance === 0 ? FIRST : REST), finalDelayMs: 50 },
    llm: {
      ttftMs: 30,
      tokensPerSecond: 400,
      reply: (req) => {
        if (/summar/i.test(req.messages.system)) return { text: 'Summary.' };
        answered.push(req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '');
        return { text: ANSWER };
      },
    },
    tts: { firstByteDelayMs: 20, realtimeFactor: 1 },
  });
});
afterAll(async () => {
  await vp?.stop();
});
beforeEach(() => {
  answered = [];
  vp.platform.voice.stt.control.deepgram!.setScript({ transcripts: ({ utterance }) => (utterance === 0 ? FIRST : REST), finalDelayMs: 50 });
});

/** The caller says the first half, stops for `pauseMs`, says the rest, and hears the answer out. */
async function pausedSentence(agent: Agent, pauseMs: number) {
  const caller = await greeted(vp, agent);
  const [first, rest] = await Promise.all([speech(FIRST), speech(REST)]);
  const before = caller.received.length;
  await caller.play(first);
  await caller.pause(pauseMs);
  await caller.play(rest);
  await caller.waitForNext((m) => m.event === 'mark', 20_000, before);
  await caller.whenIdle();
  caller.hangUp();
  const ended = await vp.nextCallEnded();
  return { ended, transcript: await transcriptOf(vp, ended.callId) };
}

describe('a long pause mid-sentence', () => {
  it('ended by endpointing: one reply, to the whole sentence', async () => {
    const { transcript } = await pausedSentence(await vp.agent({ first_message: GREETING }), 1_500);
    expect(answered).toEqual([`${FIRST} ${REST}`]);
    expect(transcript).toEqual([`agent: ${GREETING}`, `user: ${FIRST} ${REST}`, `agent: ${ANSWER}`]);
  }, 60_000);

  it('ended by the utterance-end fallback (final without speech_final): one reply, to the whole sentence', async () => {
    vp.platform.voice.stt.control.deepgram!.setScript({ transcripts: ({ utterance }) => (utterance === 0 ? FIRST : REST), finalDelayMs: 50, suppressSpeechFinal: true });
    const { transcript } = await pausedSentence(await vp.agent({ first_message: GREETING }), 1_800);
    expect(answered).toEqual([`${FIRST} ${REST}`]);
    expect(transcript).toEqual([`agent: ${GREETING}`, `user: ${FIRST} ${REST}`, `agent: ${ANSWER}`]);
  }, 60_000);

  it('with unfinished_wait_ms 0 the fragment is answered in the pause, as the recognizer ended it', async () => {
    const { transcript } = await pausedSentence(await vp.agent({ first_message: GREETING, turn_taking: { unfinished_wait_ms: 0 } }), 1_500);
    expect(answered[0]).toBe(FIRST);
    expect(transcript.slice(0, 3)).toEqual([`agent: ${GREETING}`, `user: ${FIRST}`, `agent: ${ANSWER}`]);
  }, 60_000);
});

describe('a finished answer', () => {
  it('is answered without the wait: one reply to it', async () => {
    const said = 'At seven.';
    vp.platform.voice.stt.control.deepgram!.setScript({ transcripts: () => said, finalDelayMs: 50 });
    const caller = await greeted(vp, await vp.agent({ first_message: GREETING }));
    const before = caller.received.length;
    await caller.play(await speech(said));
    await caller.waitForNext((m) => m.event === 'mark', 20_000, before);
    await caller.whenIdle();
    caller.hangUp();
    const ended = await vp.nextCallEnded();
    expect(answered).toEqual([said]);
    expect(await transcriptOf(vp, ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${said}`, `agent: ${ANSWER}`]);
  }, 60_000);
});

describe('the agent\'s turn_taking settings', () => {
  it('are validated, stored and returned by get-agent, and replaced whole by a patch', async () => {
    const base = { name: 'T', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'elevenlabs', stt_provider: 'deepgram', workspaceId: vp.workspaceId };
    for (const turn_taking of [{ unfinished_wait_ms: -1 }, { unfinished_wait_ms: 'long' }, { unfinished_wait_ms: 20_000 }, { continuation_words: [''] }, { nope: true }]) {
      const bad = await vp.api('POST', '/api/agents', { ...base, turn_taking });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: 'validation_failed' } });
    }
    const created = await vp.api('POST', '/api/agents', { ...base, turn_taking: { unfinished_wait_ms: 1_500, continuation_words: ['Para', 'y'] } });
    expect(created.status).toBe(201);
    const id = (created.body as { _id: string })._id;
    const got = await vp.api('GET', `/api/agents/${id}?workspaceId=${vp.workspaceId}`, undefined);
    expect((got.body as { turn_taking: unknown }).turn_taking).toEqual({ unfinished_wait_ms: 1_500, continuation_words: ['para', 'y'] });
    const patched = await vp.api('PATCH', `/api/agents/${id}?workspaceId=${vp.workspaceId}`, { turn_taking: { unfinished_wait_ms: 0 } });
    expect(patched.status).toBe(200);
    expect((patched.body as { turn_taking: unknown }).turn_taking).toEqual({ unfinished_wait_ms: 0 });
  }, 60_000);
});
