// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/webhooks/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook endpoint (never its secret) */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Update a webhook endpoint; enabled: true re-enables one disabled for failing */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
}
export interface operations {
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whe_01JWRFN6ERB2Q5TV3C8XW0H7JD */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a webhook endpoint (never its secret) */
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
                     *       "_id": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
                     *       "url": "https://crm.example.com/hooks/voice-agents",
                     *       "description": "CRM: log every call and its outcome",
                     *       "eventTypes": [
                     *         "call.ended",
                     *         "call.analyzed"
                     *       ],
                     *       "status": "enabled",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whe_01JWRFN6ERB2Q5TV3C8XW0H7JD */
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
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example whe_01JWRFN6ERB2Q5TV3C8XW0H7JD */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "eventTypes": [
                 *         "call.ended",
                 *         "call.analyzed",
                 *         "call.transfer"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookEndpointUpdate"];
            };
        };
        responses: {
            /** @description Update a webhook endpoint; enabled: true re-enables one disabled for failing */
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
                     *       "_id": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
                     *       "url": "https://crm.example.com/hooks/voice-agents",
                     *       "description": "CRM: log every call and its outcome",
                     *       "eventTypes": [
                     *         "call.ended",
                     *         "call.analyzed",
                     *         "call.transfer"
                     *       ],
                     *       "status": "enabled",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
