// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// The "Calls" operations.
import type { components } from './components.js';

export interface paths {
    "/api/optimus/phone-call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start an outbound phone call (reserves credits; optional Idempotency-Key header); a number on the workspace's do-not-call list is refused (409 do_not_call, recorded in history) unless consentedCall is true */
        post: operations["startPhoneCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/optimus/call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start an outbound phone call (alias of /api/optimus/phone-call) */
        post: operations["startCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the calls that are not over (initiated, dialing, ringing, in-progress), newest first; optional agentId (docs/calls.md, "Following a call") */
        get: operations["listCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One call, live or ended: its state, its history record's id once written and, while connected, the transcript so far, the agent's state and the agent */
        get: operations["getCall"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls/{id}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a call in progress, after an optional closing line the agent says first; end reason ended_by_api. Ending a call the API already ended answers status ended again (optional Idempotency-Key header) */
        post: operations["endCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls/{id}/say": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make the agent say a line now (mode interrupt) or after what it is saying (mode queue, the default); optional Idempotency-Key header */
        post: operations["sayOnCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls/{id}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a message the model sees from its next turn on (a system message; not spoken, not in the transcript); optional Idempotency-Key header */
        post: operations["addCallContext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer a phone call to an E.164 number or SIP URI, cold or warm, as the transfer tool does (409 no_phone_line for a browser call); optional Idempotency-Key header */
        post: operations["transferCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calls/{id}/listen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed WebSocket URL, good for 5 minutes and this call only, streaming both sides' audio (PCM16, one channel each) and the call's events (docs/live-calls.md) */
        post: operations["listenToCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/optimus/meeting-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a single-use video meeting link (credit check) */
        post: operations["createMeetingLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a text chat with an agent (credit check for one message); the answer is the chat session: open chatUrl and talk over the WebSocket (docs/chat.md) */
        post: operations["createChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/meeting/{callId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open a meeting link: the Join page; looks at the single-use token without using it (410 once used or expired). Without a token: the room page a reload lands on */
        get: operations["openMeeting"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/meeting/{callId}/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join a meeting: redeems the single-use token sent in the body, form or JSON (410 once used or expired); with Accept: application/json the answer is the web session (docs/meeting.md) */
        post: operations["joinMeeting"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/meeting/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Meeting page assets (its script, audio worklets and stylesheet) */
        get: operations["meetingAsset"];
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
    startPhoneCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body within 24 hours gets the first answer and starts nothing; the same key with another body is 422 idempotency_key_reused. Use a new random value (e.g. a UUID) per call. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "phoneNumber": "+14155552671",
                 *       "phoneNumberId": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                 *       "contactName": "Ada Lovelace",
                 *       "variables": {
                 *         "first_name": "Ada",
                 *         "appointment": "3 June at 10:30"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PhoneCallRequest"];
            };
        };
        responses: {
            /** @description Start an outbound phone call (reserves credits; optional Idempotency-Key header); a number on the workspace's do-not-call list is refused (409 do_not_call, recorded in history) unless consentedCall is true */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "call_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "initiated"
                     *     }
                     */
                    "application/json": components["schemas"]["CallStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    startCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body within 24 hours gets the first answer and starts nothing; the same key with another body is 422 idempotency_key_reused. Use a new random value (e.g. a UUID) per call. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "phoneNumber": "+14155552671",
                 *       "phoneNumberId": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                 *       "contactName": "Ada Lovelace",
                 *       "variables": {
                 *         "first_name": "Ada",
                 *         "appointment": "3 June at 10:30"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PhoneCallRequest"];
            };
        };
        responses: {
            /** @description Start an outbound phone call (alias of /api/optimus/phone-call) */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "call_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "initiated"
                     *     }
                     */
                    "application/json": components["schemas"]["CallStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listCalls: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the calls that are not over (initiated, dialing, ringing, in-progress), newest first; optional agentId (docs/calls.md, "Following a call") */
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
                     *           "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "type": "voice",
                     *           "direction": "outbound",
                     *           "state": "in-progress",
                     *           "from": "+14155550123",
                     *           "to": "+14155552671",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "answeredAt": "2025-06-02T14:03:19.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["LiveCall"][];
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
    getCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One call, live or ended: its state, its history record's id once written and, while connected, the transcript so far, the agent's state and the agent */
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
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "type": "voice",
                     *       "direction": "outbound",
                     *       "state": "in-progress",
                     *       "from": "+14155550123",
                     *       "to": "+14155552671",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "answeredAt": "2025-06-02T14:03:19.000Z",
                     *       "endedAt": null,
                     *       "endReason": null,
                     *       "historyId": null,
                     *       "agentState": "listening",
                     *       "transcript": [
                     *         {
                     *           "role": "agent",
                     *           "text": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?"
                     *         },
                     *         {
                     *           "role": "user",
                     *           "text": "Yes, I will be there at 10:30."
                     *         }
                     *       ],
                     *       "agent": {
                     *         "id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *         "name": "Ava"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CallView"];
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
    endCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body for the same call, while it runs, answers as the first time (replayed: true) and does nothing again; the same key with another body is 422 idempotency_key_reused (docs/live-calls.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "A colleague will call you back shortly. Goodbye."
                 *     }
                 */
                "application/json": components["schemas"]["EndCallRequest"];
            };
        };
        responses: {
            /** @description End a call in progress, after an optional closing line the agent says first; end reason ended_by_api. Ending a call the API already ended answers status ended again (optional Idempotency-Key header) */
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
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "ending"
                     *     }
                     */
                    "application/json": components["schemas"]["LiveControlResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    sayOnCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body for the same call, while it runs, answers as the first time (replayed: true) and does nothing again; the same key with another body is 422 idempotency_key_reused (docs/live-calls.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "One moment, I am checking that for you.",
                 *       "mode": "queue"
                 *     }
                 */
                "application/json": components["schemas"]["SayRequest"];
            };
        };
        responses: {
            /** @description Make the agent say a line now (mode interrupt) or after what it is saying (mode queue, the default); optional Idempotency-Key header */
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
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["LiveControlResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    addCallContext: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body for the same call, while it runs, answers as the first time (replayed: true) and does nothing again; the same key with another body is 422 idempotency_key_reused (docs/live-calls.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "message": "The caller is a returning customer; offer the loyalty discount."
                 *     }
                 */
                "application/json": components["schemas"]["ContextRequest"];
            };
        };
        responses: {
            /** @description Add a message the model sees from its next turn on (a system message; not spoken, not in the transcript); optional Idempotency-Key header */
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
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "context_added"
                     *     }
                     */
                    "application/json": components["schemas"]["LiveControlResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    transferCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body for the same call, while it runs, answers as the first time (replayed: true) and does nothing again; the same key with another body is 422 idempotency_key_reused (docs/live-calls.md). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "to": "+14155550142",
                 *       "mode": "warm",
                 *       "summary": "Ada wants to move her appointment."
                 *     }
                 */
                "application/json": components["schemas"]["TransferRequest"];
            };
        };
        responses: {
            /** @description Transfer a phone call to an E.164 number or SIP URI, cold or warm, as the transfer tool does (409 no_phone_line for a browser call); optional Idempotency-Key header */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "transferring"
                     *     }
                     */
                    "application/json": components["schemas"]["LiveControlResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listenToCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A signed WebSocket URL, good for 5 minutes and this call only, streaming both sides' audio (PCM16, one channel each) and the call's events (docs/live-calls.md) */
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
                     *       "url": "wss://stream.example.com/live/listen?token=vlt1.eyJ3b3Jrc3BhY2VJZCI6IndzXzAxIn0.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2025-06-02T14:09:19.000Z",
                     *       "format": {
                     *         "encoding": "pcm_s16le",
                     *         "sampleRate": 8000,
                     *         "channels": [
                     *           "caller",
                     *           "agent"
                     *         ],
                     *         "headerBytes": 8
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ListenResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createMeetingLink: {
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
                 *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "contactName": "Ada Lovelace",
                 *       "phoneNumber": "+14155552671",
                 *       "variables": {
                 *         "first_name": "Ada"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["MeetingLinkRequest"];
            };
        };
        responses: {
            /** @description Create a single-use video meeting link (credit check) */
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
                     *       "call_id": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
                     *       "room_url": "https://api.example.com/meeting/call_01JWRFK3TRZXKY0WVNX2WE4XSF?token=q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc"
                     *     }
                     */
                    "application/json": components["schemas"]["MeetingLinkResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createChat: {
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
                 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "contactName": "Ada Lovelace",
                 *       "variables": {
                 *         "contactName": "Ada Lovelace",
                 *         "order_id": "A-1042"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ChatRequest"];
            };
        };
        responses: {
            /** @description Start a text chat with an agent (credit check for one message); the answer is the chat session: open chatUrl and talk over the WebSocket (docs/chat.md) */
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
                     *       "chatId": "call_01JWRFM8Q2D7XK4TNV9B3C6YHZ",
                     *       "agentName": "Ava",
                     *       "chatUrl": "wss://stream.example.com/web-chat",
                     *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2026-11-23T16:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ChatStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    openMeeting: {
        parameters: {
            query?: {
                /** @example q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc */
                token?: string;
            };
            header?: never;
            path: {
                /** @example call_01JWRFK3TRZXKY0WVNX2WE4XSF */
                callId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open a meeting link: the Join page; looks at the single-use token without using it (410 once used or expired). Without a token: the room page a reload lands on */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No such meeting link (an HTML page). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head><body><main><h1>Link not found</h1><p>This meeting link is not valid.</p></main></body></html> */
                    "text/html": string;
                };
            };
            /** @description The link was already opened or has expired (an HTML page). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link already used</title></head><body><main><h1>Link already used</h1><p>This meeting link has already been opened. Ask for a new link.</p></main></body></html> */
                    "text/html": string;
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    joinMeeting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example call_01JWRFK3TRZXKY0WVNX2WE4XSF */
                callId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Join a meeting: redeems the single-use token sent in the body, form or JSON (410 once used or expired); with Accept: application/json the answer is the web session (docs/meeting.md) */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "callId": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
                     *       "agentName": "Ava",
                     *       "streamUrl": "wss://stream.example.com/web-stream",
                     *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2026-11-23T15:20:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MeetingJoined"];
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No such meeting link: a page, or the JSON error body (not_found) to a client asking for JSON. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head><body><main><h1>Link not found</h1><p>This meeting link is not valid.</p></main></body></html> */
                    "text/html": string;
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "Meeting link was not found.",
                     *         "details": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link was already opened (link_used) or has expired (link_expired): a page, or the JSON error body to a client asking for JSON. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link already used</title></head><body><main><h1>Link already used</h1><p>This meeting link has already been opened. Ask for a new link.</p></main></body></html> */
                    "text/html": string;
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "link_used",
                     *         "message": "This meeting link has already been used. Ask for a new link.",
                     *         "details": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    meetingAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example meeting.js */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Meeting page assets (its script, audio worklets and stylesheet) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
}
