// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agents/{id}/versions/{version}
import type { components } from '../components.js';

export interface paths {
    "/api/agents/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one published version of an agent */
        get: operations["getAgentVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    getAgentVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example agt_01JWRF9YVRV07ZX0MV7YH6S11D */
                id: string;
                /** @example 2 */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get one published version of an agent */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "version": 2,
                     *       "note": "Warm transfers to the front desk",
                     *       "publishedAt": "2025-06-02T15:20:45.000Z",
                     *       "agent": {
                     *         "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *         "name": "Appointment reminder",
                     *         "llm_provider": "openai",
                     *         "llm_model": "gpt-4o-mini",
                     *         "tts_provider": "elevenlabs",
                     *         "stt_provider": "deepgram",
                     *         "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
                     *         "first_message": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
                     *         "recording_enabled": true,
                     *         "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *         "createdAt": "2025-06-02T14:03:11.000Z",
                     *         "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
                     *         "language": "en-US",
                     *         "first_message_mode": "agent_speaks_first",
                     *         "first_message_interruptible": false,
                     *         "ambience_enabled": false,
                     *         "pronunciations": [
                     *           {
                     *             "word": "Invisalign",
                     *             "say_as": "in vizz a line"
                     *           },
                     *           {
                     *             "word": "Nguyen",
                     *             "phoneme": "wɪn",
                     *             "alphabet": "ipa"
                     *           }
                     *         ],
                     *         "voicemail_detection": "detect_message_end",
                     *         "voicemail_action": "leave_message",
                     *         "voicemail_message": "Hi {{contactName}}, this is Bayview Dental about your appointment tomorrow. Please call us back. Thank you!",
                     *         "max_duration_seconds": 600,
                     *         "dtmf_shortcuts": {
                     *           "0": {
                     *             "action": "transfer",
                     *             "destination": "+14155550142",
                     *             "mode": "warm"
                     *           }
                     *         },
                     *         "transfer_mode": "warm",
                     *         "updatedAt": "2025-06-02T15:20:45.000Z",
                     *         "published_version": null,
                     *         "has_unpublished_changes": false
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AgentVersion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
