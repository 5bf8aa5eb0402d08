// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "name": "Appointment reminder",
 *       "llm_provider": "openai",
 *       "llm_model": "gpt-4o-mini",
 *       "tts_provider": "elevenlabs",
 *       "stt_provider": "deepgram",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type AgentListItem = {
    _id: string;
    name: string;
    /** @enum {string} */
    llm_provider: "openai" | "anthropic" | "google" | "custom";
    llm_model: string;
    /** @enum {string} */
    tts_provider: "elevenlabs" | "deepgram" | "cartesia";
    /** @enum {string} */
    stt_provider: "deepgram" | "assemblyai" | "speechmatics" | "openai";
    workspaceId: string;
    /** Format: date-time */
    createdAt: string;
};
