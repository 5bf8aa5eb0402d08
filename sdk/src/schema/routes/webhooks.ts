// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/webhooks
import type { components } from '../components.js';

export interface paths {
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints, newest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Create a webhook endpoint; the signing secret is shown once, in this answer */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listWebhookEndpoints: {
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
            /** @description List webhook endpoints, newest first */
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
                     *           "_id": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
                     *           "url": "https://crm.example.com/hooks/voice-agents",
                     *           "description": "CRM: log every call and its outcome",
                     *           "eventTypes": [
                     *             "call.ended",
                     *             "call.analyzed"
                     *           ],
                     *           "status": "enabled",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
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
                        data: components["schemas"]["WebhookEndpoint"][];
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
    createWebhookEndpoint: {
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
                 *       "url": "https://crm.example.com/hooks/voice-agents",
                 *       "description": "CRM: log every call and its outcome",
                 *       "eventTypes": [
                 *         "call.ended",
                 *         "call.analyzed"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookEndpointCreate"];
            };
        };
        responses: {
            /** @description Create a webhook endpoint; the signing secret is shown once, in this answer */
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
                     *       "updatedAt": "2025-06-02T14:03:11.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3qkqTMvdaMw="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointCreated"];
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
