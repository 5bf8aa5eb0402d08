// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agents/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an agent */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        /** Delete an agent */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        /** Update an agent (only the fields sent) */
        patch: operations["updateAgent"];
        trace?: never;
    };
}
export interface operations {
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example agt_01JWRF9YVRV07ZX0MV7YH6S11D */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get an agent */
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
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
                     *       "language": "en-US",
                     *       "first_message_mode": "agent_speaks_first",
                     *       "first_message_interruptible": false,
                     *       "ambience_enabled": false,
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
                     *       ],
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
                     *       "updatedAt": "2025-06-02T15:20:45.000Z",
                     *       "published_version": 2,
                     *       "has_unpublished_changes": false
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
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
    deleteAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example agt_01JWRF9YVRV07ZX0MV7YH6S11D */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
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
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example agt_01JWRF9YVRV07ZX0MV7YH6S11D */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "first_message": "Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.",
                 *       "first_message_mode": "wait_for_caller",
                 *       "ambience_enabled": true,
                 *       "ambience": {
                 *         "sound": "office",
                 *         "volume": 0.25
                 *       },
                 *       "interruption": {
                 *         "min_words": 3
                 *       },
                 *       "turn_taking": {
                 *         "unfinished_wait_ms": 2500
                 *       },
                 *       "llm_provider": "custom",
                 *       "llm_base_url": "https://llm.bayviewdental.example/v1",
                 *       "llm_model": "bayview-receptionist-8b",
                 *       "llm_api_key": "sk-bayview-2f9c41d7e8a0",
                 *       "realtime": {
                 *         "provider": "openai",
                 *         "model": "gpt-realtime",
                 *         "voice": "marin"
                 *       },
                 *       "handoffs": [
                 *         {
                 *           "agent_id": "agt_01JWRG5TRR3M8QK2XD6B9NZ4VH",
                 *           "description": "the patient cannot come tomorrow and wants another day",
                 *           "context": "summary",
                 *           "variables": [
                 *             {
                 *               "name": "preferred_day",
                 *               "type": "string",
                 *               "description": "the day the patient would rather come",
                 *               "required": false
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["AgentUpdate"];
            };
        };
        responses: {
            /** @description Update an agent (only the fields sent) */
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
                     *       "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "name": "Appointment reminder",
                     *       "llm_provider": "custom",
                     *       "llm_model": "bayview-receptionist-8b",
                     *       "tts_provider": "elevenlabs",
                     *       "stt_provider": "deepgram",
                     *       "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
                     *       "first_message": "Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.",
                     *       "recording_enabled": true,
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
                     *       "language": "en-US",
                     *       "first_message_mode": "wait_for_caller",
                     *       "first_message_interruptible": false,
                     *       "ambience_enabled": true,
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
                     *       ],
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
                     *       "updatedAt": "2025-06-02T15:20:45.000Z",
                     *       "published_version": 2,
                     *       "has_unpublished_changes": false,
                     *       "ambience": {
                     *         "sound": "office",
                     *         "volume": 0.25
                     *       },
                     *       "interruption": {
                     *         "min_words": 3
                     *       },
                     *       "turn_taking": {
                     *         "unfinished_wait_ms": 2500
                     *       },
                     *       "llm_base_url": "https://llm.bayviewdental.example/v1",
                     *       "llm_api_key": "********",
                     *       "realtime": {
                     *         "provider": "openai",
                     *         "model": "gpt-realtime",
                     *         "voice": "marin"
                     *       },
                     *       "handoffs": [
                     *         {
                     *           "agent_id": "agt_01JWRG5TRR3M8QK2XD6B9NZ4VH",
                     *           "description": "the patient cannot come tomorrow and wants another day",
                     *           "context": "summary",
                     *           "variables": [
                     *             {
                     *               "name": "preferred_day",
                     *               "type": "string",
                     *               "description": "the day the patient would rather come",
                     *               "required": false
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
