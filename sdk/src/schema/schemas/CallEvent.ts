// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "atMs": 6420,
 *       "type": "turn",
 *       "sttMs": 310.2,
 *       "llmFirstTokenMs": 402.5,
 *       "llmFirstPhraseMs": 88.1,
 *       "ttsFirstByteMs": 121.7,
 *       "overheadMs": 9.4,
 *       "callerWait": {
 *         "totalMs": 932,
 *         "endOfTurnMs": 310,
 *         "llmFirstTokenMs": 403,
 *         "llmFirstPhraseMs": 88,
 *         "ttsFirstByteMs": 122,
 *         "otherMs": 9
 *       }
 *     }
 */
export type CallEvent<S extends Record<"CallerWait", unknown>> = {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "vendor_connected";
    /** @enum {string} */
    stage: "stt" | "tts";
    vendor: string;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "vendor_fallback";
    /** @enum {string} */
    stage: "stt" | "tts" | "llm" | "realtime";
    vendor: string;
    to: string;
    code: string | null;
    message: string;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "turn";
    sttMs: number | null;
    llmFirstTokenMs: number | null;
    llmFirstPhraseMs: number | null;
    ttsFirstByteMs: number | null;
    overheadMs: number | null;
    callerWait?: S["CallerWait"] | null;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "interruption";
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "tool_call";
    name: string;
    /** @enum {string} */
    status: "ok" | "error";
    durationMs: number;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "transfer";
    destination: string;
    /** @enum {string} */
    mode: "cold" | "warm";
    outcome: string;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "error";
    /** @enum {string} */
    stage: "stt" | "tts" | "llm" | "telephony" | "tool";
    vendor: string;
    code: string | null;
    message: string;
    fatal: boolean;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "ambience_unavailable";
    message: string;
} | {
    /** @description Milliseconds from the call start */
    atMs: number;
    /** @constant */
    type: "ended";
    reason: string;
};
