// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "provider": "deepgram",
 *       "last4": "9a0f",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "updatedAt": "2025-06-02T15:20:45.000Z",
 *       "lastTestedAt": "2025-06-02T15:20:45.000Z",
 *       "lastTestResult": "valid"
 *     }
 */
export type ProviderKey = {
    /** @enum {string} */
    provider: "openai" | "anthropic" | "google" | "deepgram" | "assemblyai" | "speechmatics" | "elevenlabs" | "cartesia";
    last4: string;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
    /** Format: date-time */
    lastTestedAt?: string;
    /** @enum {string} */
    lastTestResult?: "valid" | "invalid" | "unreachable";
};
