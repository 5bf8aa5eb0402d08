// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/phone-numbers/{id}
import type { components } from '../components.js';

export interface paths {
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
}
export interface operations {
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
}
