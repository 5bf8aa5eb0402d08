// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "stage": "tts",
 *       "vendor": "elevenlabs",
 *       "code": "voice_not_found",
 *       "message": "elevenlabs answered HTTP 404: A voice with voice_id voice-1 does not exist.",
 *       "atSecond": 0.2
 *     }
 */
export type CallError = {
    /** @enum {string} */
    stage: "stt" | "tts" | "llm" | "telephony" | "tool";
    vendor: string;
    code: string | null;
    message: string;
    atSecond: number;
};
