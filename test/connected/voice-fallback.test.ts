/**
 * Invariant: a model that stays down does not end the call while the agent has a fallback for it, through
 * the real adapters and the vendors' wire protocols (stand-ins on loopback).
 * - The agent's model answering 503 to every request: the turn is tried on it again, then answered by the
 *   agent's `fallback.llm` model at another vendor; the caller hears that answer and the call goes on.
 * - Every model down (the agent's and its fallback): each turn gets "say it again" (the existing path); the
 *   third failed turn in a row gets the failure line, then the call ends as `error`.
 * The transcriber's fallbacks are in voice-fallback-stt.test.ts (a file of their own, so the two run side
 * by side).
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import { SHORT_LINES, turnConversation } from './voice-harness.js';

// Short lines: each is played in real time, and their length is not what these tests are about.
const SAID = 'A table for two at seven.';
const GREETING = 'Hello, Luigi.';
const ANSWER = 'Noted.';

const turn = turnConversation(SAID, ANSWER);
const { greeted, sayAndHearAnswer, transcriptOf } = turn;

const { apologyPhrase: APOLOGY, failurePhrase: FAILURE } = SHORT_LINES;

describe('vendor fallbacks: the model', () => {
  it("answers the turn with the fallback model when the agent's model is down", async () => {
    const llm = turn.vp.platform.voice.llm.control;
    const agent = await turn.vp.agent({ first_message: GREETING, fallback: { llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] } });
    const caller = await greeted(agent);
    const seen = llm.requests.length;
    llm.failNext(503, 1_000, { vendor: 'openai' });
    try {
      await sayAndHearAnswer(caller);
    } finally {
      llm.failNext(503, 0);
    }
    const requests = llm.requests.slice(seen);
    const openai = requests.filter((r) => r.vendor === 'openai');
    const anthropic = requests.filter((r) => r.vendor === 'anthropic');
    // The agent's model was asked, and asked again after the adapter's own retries, then the fallback.
    expect(openai.length).toBeGreaterThanOrEqual(2);
    expect(openai.every((r) => r.status === 503)).toBe(true);
    expect(anthropic).toHaveLength(1);
    expect(anthropic[0]).toMatchObject({ status: 200, outcome: 'completed', body: expect.objectContaining({ model: 'claude-haiku-4-5' }) });
    expect(requests.indexOf(anthropic[0]!)).toBe(requests.length - 1);
    caller.hangUp();
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('customer_hangup');
    expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${SAID}`, `agent: ${ANSWER}`]);
  });

  it('apologizes per failed turn, then ends the call as llm_unavailable, when every model stays down', async () => {
    const llm = turn.vp.platform.voice.llm.control;
    const agent = await turn.vp.agent({ first_message: GREETING, fallback: { llm: [{ provider: 'anthropic', model: 'claude-haiku-4-5' }] } });
    const caller = await greeted(agent);
    const seen = llm.requests.length;
    llm.failNext(503, 1_000);
    try {
      // Two turns: every model fails, and the caller is asked to say it again.
      await sayAndHearAnswer(caller);
      await sayAndHearAnswer(caller);
      // The third failed turn in a row means the models are down: the failure line, then the hang-up.
      await caller.play(await speech(SAID));
      const closed = await caller.closed;
      expect(closed.reason).toBe('llm_unavailable');
    } finally {
      llm.failNext(503, 0);
    }
    const requests = llm.requests.slice(seen);
    expect(requests.filter((r) => r.vendor === 'anthropic').length).toBeGreaterThanOrEqual(3);
    const ended = await turn.vp.nextCallEnded();
    expect(ended.outcome.reason).toBe('llm_unavailable');
    expect(ended.record?.callError).toMatchObject({ stage: 'llm' });
    expect(await transcriptOf(ended.callId)).toEqual([
      `agent: ${GREETING}`,
      `user: ${SAID}`,
      `agent: ${APOLOGY}`,
      `user: ${SAID}`,
      `agent: ${APOLOGY}`,
      `user: ${SAID}`,
      `agent: ${FAILURE}`,
    ]);
  });
});
