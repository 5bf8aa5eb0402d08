// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// The "Phone numbers" operations.
import type { components } from './components.js';

export interface paths {
    "/api/phone-numbers/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search numbers for sale (buy takes one of these) */
        get: operations["searchPhoneNumbers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/phone-numbers/buy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy a number for the workspace */
        post: operations["buyPhoneNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/phone-numbers/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a number from your own telephony account (BYOT); points its webhooks at the platform */
        post: operations["importPhoneNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/phone-numbers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List phone numbers, newest first */
        get: operations["listPhoneNumbers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/phone-numbers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a phone number */
        get: operations["getPhoneNumber"];
        put?: never;
        post?: never;
        /** Release a number (bought: back to the provider; imported: our webhooks removed) */
        delete: operations["deletePhoneNumber"];
        options?: never;
        head?: never;
        /** Assign (or with null unassign) the agent that answers inbound calls, and set or remove the inbound webhook that may route each one */
        patch: operations["updatePhoneNumber"];
        trace?: never;
    };
    "/api/phone-numbers/{id}/inbound-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The number's inbound webhook answers, newest first: the call, what the answer did (routed, rejected, or fallback and why), the server's status and time */
        get: operations["listInboundDeliveries"];
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
    searchPhoneNumbers: {
        parameters: {
            query?: {
                workspaceId?: string;
                /** @example US */
                country?: string;
                /** @example 415 */
                areaCode?: string;
                contains?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Search numbers for sale (buy takes one of these) */
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
                     *           "number": "+14155550123",
                     *           "friendlyName": "(415) 555-0123",
                     *           "locality": "San Francisco",
                     *           "region": "CA",
                     *           "postalCode": "94103",
                     *           "country": "US",
                     *           "capabilities": {
                     *             "voice": true,
                     *             "sms": true,
                     *             "mms": true
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AvailablePhoneNumber"][];
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
    buyPhoneNumber: {
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
                 *       "phoneNumber": "+14155550123"
                 *     }
                 */
                "application/json": components["schemas"]["PhoneNumberBuy"];
            };
        };
        responses: {
            /** @description Buy a number for the workspace */
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
                     *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *       "number": "+14155550123",
                     *       "status": "active",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumberBought"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    importPhoneNumber: {
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
                 *       "phoneNumber": "+14155550142",
                 *       "telephonyAccountSid": "AC3f9c2a71d4e85b06a7c1e9d2b4f60a58",
                 *       "telephonyAuthToken": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
                 *     }
                 */
                "application/json": components["schemas"]["PhoneNumberImport"];
            };
        };
        responses: {
            /** @description Import a number from your own telephony account (BYOT); points its webhooks at the platform */
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
                     *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *       "number": "+14155550142",
                     *       "status": "active",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "type": "byot"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumberImported"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPhoneNumbers: {
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
            /** @description List phone numbers, newest first */
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
                     *           "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *           "number": "+14155550123",
                     *           "status": "active",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "agent_version": null,
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "updatedAt": "2025-06-02T15:20:45.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["PhoneNumber"][];
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
    getPhoneNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pn_01JWRFFEMRDV3APXSJENM3G73Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a phone number */
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
                     *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *       "number": "+14155550123",
                     *       "status": "active",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "agent_version": null,
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
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
    deletePhoneNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pn_01JWRFFEMRDV3APXSJENM3G73Y */
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
    updatePhoneNumber: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example pn_01JWRFFEMRDV3APXSJENM3G73Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "inbound_webhook_url": "https://crm.example.com/voice/inbound"
                 *     }
                 */
                "application/json": components["schemas"]["PhoneNumberUpdate"];
            };
        };
        responses: {
            /** @description Assign (or with null unassign) the agent that answers inbound calls, and set or remove the inbound webhook that may route each one */
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
                     *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *       "number": "+14155550123",
                     *       "status": "active",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "agent_version": null,
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z",
                     *       "inbound_webhook_url": "https://crm.example.com/voice/inbound",
                     *       "inbound_webhook_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumber"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listInboundDeliveries: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                /** @example pn_01JWRFFEMRDV3APXSJENM3G73Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The number's inbound webhook answers, newest first: the call, what the answer did (routed, rejected, or fallback and why), the server's status and time */
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
                     *           "_id": "dlv_01JWRFXQ4R7N2KD5TB8MZ3VC6W",
                     *           "eventId": "evt_01JWRFXQ3R9H4BD6QT1NZ8KC2V",
                     *           "callId": "call_01JWRFXQ3RK2M7TV5B9QD4XN8C",
                     *           "outcome": "fallback",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "reason": "HTTP 503: only a 2xx answer is used",
                     *           "status": 503,
                     *           "latencyMs": 48,
                     *           "responseExcerpt": "{\"error\":\"maintenance\"}",
                     *           "createdAt": "2025-06-02T16:12:09.310Z"
                     *         },
                     *         {
                     *           "_id": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M",
                     *           "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
                     *           "callId": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *           "outcome": "routed",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "status": 200,
                     *           "latencyMs": 112,
                     *           "responseExcerpt": "{\"variables\":{\"first_name\":\"Ada\"},\"metadata\":{\"crm_id\":\"lead-42\"}}",
                     *           "createdAt": "2025-06-02T15:41:27.804Z"
                     *         }
                     *       ],
                     *       "total": 2,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["InboundDelivery"][];
                        total: number;
                        page: number;
                        limit: number;
                    };
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
