// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "provider": "deepgram",
 *       "result": "valid",
 *       "vendorStatus": 200,
 *       "message": "deepgram accepted the key.",
 *       "testedAt": "2025-06-02T15:20:45.000Z"
 *     }
 */
export type ProviderKeyTested = {
    /** @enum {string} */
    provider: "openai" | "anthropic" | "google" | "deepgram" | "assemblyai" | "speechmatics" | "elevenlabs" | "cartesia";
    /** @enum {string} */
    result: "valid" | "invalid" | "unreachable";
    vendorStatus?: number;
    message: string;
    /** Format: date-time */
    testedAt: string;
};
