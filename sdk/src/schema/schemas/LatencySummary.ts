// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "turns": 6,
 *       "measuredTurns": 5,
 *       "callerWaitP50Ms": 932,
 *       "callerWaitP90Ms": 1480,
 *       "callerWaitMaxMs": 1480
 *     }
 */
export type LatencySummary = {
    /** @description Caller turns in the call */
    turns: number;
    /** @description Turns with a caller wait (the others were interrupted before the agent spoke, or it never did) */
    measuredTurns: number;
    /** @description Median caller wait (nearest rank), ms; null when no turn was measured */
    callerWaitP50Ms: number | null;
    /** @description 90th percentile caller wait (nearest rank), ms; null when no turn was measured */
    callerWaitP90Ms: number | null;
    /** @description Longest caller wait, ms; null when no turn was measured */
    callerWaitMaxMs: number | null;
};
