// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "totalMs": 932,
 *       "endOfTurnMs": 310,
 *       "llmFirstTokenMs": 403,
 *       "llmFirstPhraseMs": 88,
 *       "ttsFirstByteMs": 122,
 *       "otherMs": 9
 *     }
 */
export type CallerWait = {
    /** @description End of the caller's speech (their last voiced audio) to the first agent audio sent */
    totalMs: number;
    /** @description End of speech to the turn taken as ended: the recognizer's endpointing and final, and any wait on an unfinished sentence */
    endOfTurnMs: number;
    /** @description The wait on the model's first token (0 when the caller did not wait on it; null when it gave none) */
    llmFirstTokenMs: number | null;
    /** @description The wait from the first token to the first phrase complete enough to speak */
    llmFirstPhraseMs: number | null;
    /** @description The wait from the first phrase sent to the voice to its first audio byte */
    ttsFirstByteMs: number | null;
    /** @description The rest: this service's own time (scheduling, queueing, encoding) and tool runs before the first words */
    otherMs: number;
};
