import * as z from 'zod';

/**
 * What the caller waited for an answer to one turn, in whole milliseconds: from the end of their speech to
 * the first agent audio sent, and the share of it each stage took (streaming-service/src/call/latency.ts,
 * `callerWait`). The shares never overlap and `totalMs` is their sum with `otherMs`.
 */
export const CallerWait = z
  .object({
    totalMs: z.number().int().describe('End of the caller\'s speech (their last voiced audio) to the first agent audio sent'),
    endOfTurnMs: z.number().int().describe('End of speech to the turn taken as ended: the recognizer\'s endpointing and final, and any wait on an unfinished sentence'),
    llmFirstTokenMs: z.number().int().nullable().describe('The wait on the model\'s first token (0 when the caller did not wait on it; null when it gave none)'),
    llmFirstPhraseMs: z.number().int().nullable().describe('The wait from the first token to the first phrase complete enough to speak'),
    ttsFirstByteMs: z.number().int().nullable().describe('The wait from the first phrase sent to the voice to its first audio byte'),
    otherMs: z.number().int().describe('The rest: this service\'s own time (scheduling, queueing, encoding) and tool runs before the first words'),
  })
  .meta({ id: 'CallerWait', examples: [{ totalMs: 932, endOfTurnMs: 310, llmFirstTokenMs: 403, llmFirstPhraseMs: 88, ttsFirstByteMs: 122, otherMs: 9 }] });
export type CallerWaitFigures = z.infer<typeof CallerWait>;

/**
 * A call's latency in three figures, from its turns' caller waits (docs/voice-pipeline.md, "The caller's
 * wait"): what a person would say about the call's pace without reading every turn.
 */
export const LatencySummary = z
  .object({
    turns: z.number().int().describe('Caller turns in the call'),
    measuredTurns: z.number().int().describe('Turns with a caller wait (the others were interrupted before the agent spoke, or it never did)'),
    callerWaitP50Ms: z.number().int().nullable().describe('Median caller wait (nearest rank), ms; null when no turn was measured'),
    callerWaitP90Ms: z.number().int().nullable().describe('90th percentile caller wait (nearest rank), ms; null when no turn was measured'),
    callerWaitMaxMs: z.number().int().nullable().describe('Longest caller wait, ms; null when no turn was measured'),
  })
  .meta({ id: 'LatencySummary', examples: [{ turns: 6, measuredTurns: 5, callerWaitP50Ms: 932, callerWaitP90Ms: 1480, callerWaitMaxMs: 1480 }] });
export type LatencySummary = z.infer<typeof LatencySummary>;

/**
 * The nearest-rank percentile (the smallest value with at least `p` of the values at or below it): always
 * one of the values, so a call's p90 is a turn that happened, not an interpolation between two.
 */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** The summary of a call's turns; turns without a caller wait are counted but not measured. */
export function latencySummary(turns: readonly { readonly callerWait?: { readonly totalMs: number } | null }[]): LatencySummary {
  const waits = turns.flatMap((t) => (t.callerWait ? [t.callerWait.totalMs] : [])).sort((a, b) => a - b);
  return {
    turns: turns.length,
    measuredTurns: waits.length,
    callerWaitP50Ms: nearestRank(waits, 0.5),
    callerWaitP90Ms: nearestRank(waits, 0.9),
    callerWaitMaxMs: waits.at(-1) ?? null,
  };
}
