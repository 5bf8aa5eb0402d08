/**
 * Invariant: a transcriber that stays down does not end the call while the agent has a fallback for it,
 * through the real adapters and the vendors' wire protocols (stand-ins on loopback).
 * - The agent's transcriber refusing every connection after its socket dropped: the call moves to the
 *   `fallback.stt` transcriber, which hears the caller's next turn; the call goes on.
 * - Every transcriber down: the caller hears the failure line, then the call ends as `error`.
 * The model's fallbacks are in voice-fallback.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SHORT_LINES, turnConversation, waitUntil } from './voice-harness.js';

// Short lines: each is played in real time, and their length is not what these tests are about.
const SAID = 'A table for two at seven.';
const GREETING = 'Hello, Luigi.';
const ANSWER = 'Noted.';

const turn = turnConversation(SAID, ANSWER);
const { greeted, sayAndHearAnswer, transcriptOf } = turn;

const FAILURE = SHORT_LINES.failurePhrase;

describe('vendor fallbacks: the transcriber', () => {
  it('hears the caller through the fallback transcriber when the STT vendor stays down', async () => {
    const dg = turn.vp.platform.voice.stt.control.deepgram!;
    const aai = turn.vp.platform.voice.stt.control.assemblyai!;
    const agent = await turn.vp.agent({ first_message: GREETING, fallback: { stt: [{ provider: 'assemblyai' }] } });
    try {
      const caller = await greeted(agent);
      const aaiBefore = aai.connections;
      // Every reconnect is refused, then the open socket goes.
      dg.failNext(100, 503);
      dg.dropAll(1011);
      await waitUntil(() => aai.connections > aaiBefore || undefined);
      await sayAndHearAnswer(caller);
      caller.hangUp();
      const ended = await turn.vp.nextCallEnded();
      expect(ended.outcome.reason).toBe('customer_hangup');
      // AssemblyAI's unformatted words (the adapter asks for format_turns=false): the fallback heard the turn.
      const unformatted = SAID.toLowerCase().replace(/[.,]/g, '');
      expect(await transcriptOf(ended.callId)).toEqual([`agent: ${GREETING}`, `user: ${unformatted}`, `agent: ${ANSWER}`]);
      const heard = aai.sessions.filter((s) => s.index >= aaiBefore).flatMap((s) => s.frames).filter((f) => f.dir === 'in' && f.kind === 'binary');
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      dg.reset();
    }
  });

  it('apologizes, then ends the call as stt_unavailable, when every transcriber stays down', async () => {
    const dg = turn.vp.platform.voice.stt.control.deepgram!;
    const aai = turn.vp.platform.voice.stt.control.assemblyai!;
    const agent = await turn.vp.agent({ first_message: GREETING, fallback: { stt: [{ provider: 'assemblyai' }] } });
    try {
      const caller = await greeted(agent);
      const heardBefore = caller.echoed.length;
      const aaiRefusedBefore = aai.rejected.length;
      dg.failNext(100, 503);
      aai.failNext(100, 503);
      dg.dropAll(1011);
      const closed = await caller.closed;
      expect(closed.reason).toBe('stt_unavailable');
      // The fallback was tried before giving up, and the apology played before the stream closed.
      expect(aai.rejected.length).toBeGreaterThan(aaiRefusedBefore);
      expect(caller.echoed.slice(heardBefore).some((e) => !e.flushed)).toBe(true);
      const ended = await turn.vp.nextCallEnded();
      expect(ended.outcome.reason).toBe('stt_unavailable');
      // The last transcriber tried is the one the error names.
      expect(ended.record?.callError).toMatchObject({ stage: 'stt', vendor: 'assemblyai' });
      expect(await transcriptOf(ended.callId)).toEqual([
        `agent: ${GREETING}`,
        `agent: ${FAILURE}`,
      ]);
    } finally {
      dg.reset();
      aai.reset();
    }
  });
});
