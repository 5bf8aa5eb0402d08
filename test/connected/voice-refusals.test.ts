/**
 * Invariant: a vendor refusing the agent's configuration (an unknown model or voice id: the strict
 * stand-ins answer as the vendors do, docs/vendors-*.md) costs the call its first choice, not the call:
 * - an unknown `llm_model` is asked once (a 404 is not retried) and the agent's `fallback.llm` answers; with
 *   no fallback the caller hears "say it again" and the call goes on;
 * - a 429 whose Retry-After is longer than a caller waits (over 2 s) is not retried: the fallback answers;
 * - an unknown `tts_voice_id` is refused at the handshake and the agent's `fallback.tts` voice speaks the
 *   whole call; with no fallback the call ends as `tts_voice_not_found` (nothing can speak an apology), with a
 *   `callError` naming the vendor.
 */
import { describe, expect, it } from 'vitest';
import { SHORT_LINES, turnConversation } from './voice-harness.js';

// Short lines: each is played in real time, and their length is not what these tests are about.
const SAID = 'A table for two at seven.';
const GREETING = 'Hello, Luigi.';
const ANSWER = 'Noted.';
const APOLOGY = SHORT_LINES.apologyPhrase;

const turn = turnConversation(SAID, ANSWER);
const { greeted, sayAndHearAnswer, transcriptOf } = turn;

describe('an unknown model', () => {
  it('is asked once, then the fallback model answers the turn', async () => {
    const llm = turn.vp.platform.voice.llm.control;
    const agent = await turn.vp.agent({ first_message: GREETING, llm_model: 'gpt-4o-mimi', fallback: { llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] } });
    const caller = await greeted(agent);
    const seen = llm.requests.length;
    await sayAndHearAnswer(caller);
    const requests = llm.requests.slice(seen);
    expect(requests.map((r) => [r.vendor, r.status])).toEqual([
      ['openai', 404],
      ['anthropic', 200],
    ]);
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
  });

  it('without a fallback: the caller hears "say it again" and the call goes on', async () => {
    const agent = await turn.vp.agent({ first_message: GREETING, llm_model: 'gpt-4o-mimi' });
    const caller = await greeted(agent);
    await sayAndHearAnswer(caller);
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${APOLOGY}`]);
  });
});

describe('a rate limit longer than a caller waits', () => {
  it('(429, Retry-After 30 s) is not retried: the fallback model answers the turn at once', async () => {
    const llm = turn.vp.platform.voice.llm.control;
    const agent = await turn.vp.agent({ first_message: GREETING, fallback: { llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] } });
    const caller = await greeted(agent);
    const seen = llm.requests.length;
    llm.set({ retryAfterSeconds: 30 });
    llm.failNext(429, 1_000, { vendor: 'openai' });
    try {
      await sayAndHearAnswer(caller);
    } finally {
      llm.failNext(429, 0);
      llm.set({ retryAfterSeconds: undefined });
    }
    expect(llm.requests.slice(seen).map((r) => [r.vendor, r.status])).toEqual([
      ['openai', 429],
      ['anthropic', 200],
    ]);
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
  });
});

describe('an unknown voice', () => {
  it('is refused at the handshake; the fallback voice speaks the call', async () => {
    const aura = turn.vp.platform.voice.tts.control.deepgram!;
    const agent = await turn.vp.agent({
      first_message: GREETING,
      tts_provider: 'elevenlabs',
      tts_voice_id: 'not-a-voice-id',
      fallback: { tts: [{ provider: 'deepgram', voice_id: 'aura-2-andromeda-en' }] },
    });
    const auraBefore = aura.connections.length;
    const caller = await greeted(agent);
    await sayAndHearAnswer(caller);
    const used = aura.connections.slice(auraBefore);
    expect(used.map((c) => c.query.model)).toEqual(['aura-2-andromeda-en']);
    const spoken = used[0]!.received.flatMap((m) => (m.json?.type === 'Speak' ? [String(m.json.text).trim()] : []));
    expect(spoken).toEqual([GREETING, ANSWER]);
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
  });

  it('without a fallback: the call ends as tts_voice_not_found, naming the vendor', async () => {
    const agent = await turn.vp.agent({ first_message: GREETING, tts_provider: 'cartesia', tts_voice_id: '00000000-0000-4000-8000-000000000000' });
    const caller = await turn.vp.call(agent);
    const closed = await caller.closed;
    expect(closed.reason).toBe('tts_voice_not_found');
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('tts_voice_not_found');
    expect(ended.outcome.failure?.error).toMatchObject({ stage: 'tts', vendor: 'cartesia' });
    expect(ended.outcome.failure?.error.message).toContain('00000000-0000-4000-8000-000000000000');
  });
});
