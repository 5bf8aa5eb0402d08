// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "name": "Appointment reminder",
 *       "llm_provider": "openai",
 *       "llm_model": "gpt-4o-mini",
 *       "tts_provider": "elevenlabs",
 *       "stt_provider": "deepgram",
 *       "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
 *       "first_message": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
 *       "recording_enabled": true,
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type AgentCreated = {
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
    system_prompt: string;
    first_message: string;
    recording_enabled: boolean;
    analysis?: {
        summaryPrompt?: string;
        successEvaluation?: {
            rubric: string;
            /**
             * @default pass_fail
             * @enum {string}
             */
            type: "pass_fail" | "score";
            /** @default 7 */
            passingScore: number;
        };
        structuredData?: {
            schema: {
                [key: string]: unknown;
            };
            prompt?: string;
        };
    } | null;
    tool_ids?: string[] | null;
    knowledge_base_ids?: string[];
    /** @enum {string} */
    knowledge_base_mode?: "auto" | "tool";
    llm_base_url?: string | null;
    llm_api_key?: string | null;
};
