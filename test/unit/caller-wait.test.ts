/**
 * Invariant: a turn's caller wait runs from the end of the caller's speech (their last voiced audio) to the
 * first agent audio, in whole milliseconds; its parts are the stages' shares of that wait, never
 * overlapping, so they are non-negative and, with `otherMs`, add up to the total whatever the order or
 * overlap of the points (a first token before the turn ended, a filler before the first token); a turn
 * with no agent audio, or with no known end of speech, has no wait (null, never 0). The call's summary
 * counts every turn, measures those with a wait, and reports nearest-rank percentiles: values of real turns.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callerWait, type TurnLatency } from '../../streaming-service/src/call/latency.js';
import { latencySummary, nearestRank } from '../../lib/domain/caller-wait.js';

/** A turn that ended at 1000 ms, 300 ms after the caller's last voiced audio, answered in order. */
const answered: TurnLatency = {
  handleId: 'h1',
  sttFinalAtMs: 1000,
  sttMs: 300,
  llmRequestAtMs: 1002,
  llmFirstTokenAtMs: 1400.4,
  llmFirstPhraseAtMs: 1480.6,
  ttsRequestAtMs: 1481,
  ttsFirstByteAtMs: 1601.2,
  firstAudioAtMs: 1604.9,
};

describe('callerWait', () => {
  it('splits the wait from the end of speech into the stages, in order, in whole milliseconds', () => {
    // Positions from the end of speech (700): 300, 302, 700.4→700, 780.6→781, 781, 901.2→901, 904.9→905.
    expect(callerWait(answered)).toEqual({ totalMs: 905, endOfTurnMs: 300, llmFirstTokenMs: 398, llmFirstPhraseMs: 81, ttsFirstByteMs: 120, otherMs: 6 });
  });

  it('is null for a turn interrupted before the agent spoke, and for one whose end of speech is unknown', () => {
    const { firstAudioAtMs: _, ...interrupted } = answered;
    expect(callerWait(interrupted)).toBeNull();
    expect(callerWait({ handleId: 'h2', sttFinalAtMs: 1000, sttMs: 250 })).toBeNull();
    const { sttMs: __, ...noVoice } = answered;
    expect(callerWait(noVoice)).toBeNull();
  });

  it('gives a stage the caller did not wait on a 0 share: a first token that came before the turn ended', () => {
    // The model was asked (and answered) while the caller was still finishing: only the phrase and TTS wait remain.
    const early = { ...answered, llmRequestAtMs: 800, llmFirstTokenAtMs: 950, llmFirstPhraseAtMs: 1100, ttsRequestAtMs: 1100, ttsFirstByteAtMs: 1200, firstAudioAtMs: 1203 };
    expect(callerWait(early)).toEqual({ totalMs: 503, endOfTurnMs: 300, llmFirstTokenMs: 0, llmFirstPhraseMs: 100, ttsFirstByteMs: 100, otherMs: 3 });
  });

  it('gives a 0 share to a stage that ended after the first audio: a filler spoke before the model’s first words', () => {
    // The model called a tool (no text); the filler's phrase went to TTS at 2000 and sounded at 2150; the
    // model's first words came at 3000. The wait was the tool's (other) and the filler's synthesis.
    const filler = { ...answered, llmFirstTokenAtMs: 3000, llmFirstPhraseAtMs: 3100, ttsRequestAtMs: 2000, ttsFirstByteAtMs: 2140, firstAudioAtMs: 2150 };
    expect(callerWait(filler)).toEqual({ totalMs: 1450, endOfTurnMs: 300, llmFirstTokenMs: 0, llmFirstPhraseMs: 0, ttsFirstByteMs: 140, otherMs: 1010 });
  });

  it('leaves a stage null when its points were not reached, its time then counted as other', () => {
    const { llmFirstTokenAtMs: _, llmFirstPhraseAtMs: __, ...noText } = answered;
    expect(callerWait(noText)).toEqual({ totalMs: 905, endOfTurnMs: 300, llmFirstTokenMs: null, llmFirstPhraseMs: null, ttsFirstByteMs: 120, otherMs: 485 });
  });

  it('holds its relations for any order of the points', () => {
    const point = fc.option(fc.double({ min: 0, max: 5000, noNaN: true }), { nil: undefined });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 5000, noNaN: true }), fc.double({ min: 0, max: 2000, noNaN: true }), point, point, point, point, point, point, (sttFinalAtMs, sttMs, llmRequestAtMs, llmFirstTokenAtMs, llmFirstPhraseAtMs, ttsRequestAtMs, ttsFirstByteAtMs, firstAudioAtMs) => {
        const l: TurnLatency = { handleId: 'h', sttFinalAtMs, sttMs, llmRequestAtMs, llmFirstTokenAtMs, llmFirstPhraseAtMs, ttsRequestAtMs, ttsFirstByteAtMs, firstAudioAtMs };
        const wait = callerWait(l);
        if (firstAudioAtMs === undefined || firstAudioAtMs < sttFinalAtMs - sttMs) {
          expect(wait).toBeNull();
          return;
        }
        expect(wait).not.toBeNull();
        const { totalMs, otherMs, ...parts } = wait!;
        expect(totalMs).toBe(Math.round(firstAudioAtMs - (sttFinalAtMs - sttMs)));
        for (const part of [totalMs, otherMs, ...Object.values(parts)]) {
          if (part === null) continue;
          expect(Number.isInteger(part)).toBe(true);
          expect(part).toBeGreaterThanOrEqual(0);
          expect(part).toBeLessThanOrEqual(totalMs);
        }
        expect(Object.values(parts).reduce<number>((sum, part) => sum + (part ?? 0), otherMs)).toBe(totalMs);
      }),
      { numRuns: 500 },
    );
  });
});

describe('latencySummary', () => {
  const turn = (totalMs: number | null) => ({ callerWait: totalMs === null ? null : { totalMs } });

  it('counts every turn, measures those with a wait, and reports p50, p90 and the longest', () => {
    const waits = [900, 1200, 700, null, 3100, 800, 1000, 950, 1100, 1300, 2000];
    expect(latencySummary(waits.map(turn))).toEqual({ turns: 11, measuredTurns: 10, callerWaitP50Ms: 1000, callerWaitP90Ms: 2000, callerWaitMaxMs: 3100 });
  });

  it('has no figures for a call whose turns were all unanswered, and none for one without turns', () => {
    expect(latencySummary([turn(null), turn(null)])).toEqual({ turns: 2, measuredTurns: 0, callerWaitP50Ms: null, callerWaitP90Ms: null, callerWaitMaxMs: null });
    expect(latencySummary([])).toEqual({ turns: 0, measuredTurns: 0, callerWaitP50Ms: null, callerWaitP90Ms: null, callerWaitMaxMs: null });
  });

  it('treats records from before the caller wait was kept as unmeasured turns', () => {
    expect(latencySummary([{}, turn(640)])).toEqual({ turns: 2, measuredTurns: 1, callerWaitP50Ms: 640, callerWaitP90Ms: 640, callerWaitMaxMs: 640 });
  });

  it('takes nearest-rank percentiles: always one of the values', () => {
    expect(nearestRank([100, 200], 0.5)).toBe(100);
    expect(nearestRank([100, 200], 0.9)).toBe(200);
    expect(nearestRank([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000], 0.9)).toBe(900);
    expect(nearestRank([5], 0.9)).toBe(5);
    expect(nearestRank([], 0.5)).toBeNull();
  });
});
