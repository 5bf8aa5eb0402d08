// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agents
import type { components } from '../components.js';

export interface paths {
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List agents, newest first */
        get: operations["listAgents"];
        put?: never;
        /** Create an agent */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listAgents: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List agents, newest first */
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
                     *       "data": [
                     *         {
                     *           "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "name": "Appointment reminder",
                     *           "llm_provider": "openai",
                     *           "llm_model": "gpt-4o-mini",
                     *           "tts_provider": "elevenlabs",
                     *           "stt_provider": "deepgram",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "createdAt": "2025-06-02T14:03:11.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AgentListItem"][];
                        total: number;
                        page: number;
                        limit: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Appointment reminder",
                 *       "llm_provider": "openai",
                 *       "llm_model": "gpt-4o-mini",
                 *       "tts_provider": "elevenlabs",
                 *       "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
                 *       "stt_provider": "deepgram",
                 *       "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
                 *       "first_message": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
                 *       "recording_enabled": true,
                 *       "language": "en-US",
                 *       "voicemail_detection": "detect_message_end",
                 *       "voicemail_action": "leave_message",
                 *       "voicemail_message": "Hi {{contactName}}, this is Bayview Dental about your appointment tomorrow. Please call us back. Thank you!",
                 *       "max_duration_seconds": 600,
                 *       "dtmf_shortcuts": {
                 *         "0": {
                 *           "action": "transfer",
                 *           "destination": "+14155550142",
                 *           "mode": "warm"
                 *         }
                 *       },
                 *       "transfer_mode": "warm",
                 *       "pronunciations": [
                 *         {
                 *           "word": "Invisalign",
                 *           "say_as": "in vizz a line"
                 *         },
                 *         {
                 *           "word": "Nguyen",
                 *           "phoneme": "wɪn",
                 *           "alphabet": "ipa"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["AgentCreate"];
            };
        };
        responses: {
            /** @description Create an agent */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
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
                    "application/json": components["schemas"]["AgentCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
