// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/webhooks/{id}/deliveries
import type { components } from '../components.js';

export interface paths {
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log of an endpoint: attempts, status, latency, response excerpt */
        get: operations["listWebhookDeliveries"];
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
    listWebhookDeliveries: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                status?: "pending" | "retrying" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                /** @example whe_01JWRFN6ERB2Q5TV3C8XW0H7JD */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery log of an endpoint: attempts, status, latency, response excerpt */
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
                     *           "_id": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M",
                     *           "endpointId": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
                     *           "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
                     *           "eventType": "call.ended",
                     *           "status": "succeeded",
                     *           "attempts": [
                     *             {
                     *               "at": "2025-06-02T14:04:47.120Z",
                     *               "status": 503,
                     *               "latencyMs": 212,
                     *               "responseExcerpt": "{\"error\":\"maintenance\"}"
                     *             },
                     *             {
                     *               "at": "2025-06-02T14:04:52.701Z",
                     *               "status": 200,
                     *               "latencyMs": 87,
                     *               "responseExcerpt": "{\"ok\":true}"
                     *             }
                     *           ],
                     *           "createdAt": "2025-06-02T14:04:47.090Z",
                     *           "updatedAt": "2025-06-02T14:04:52.788Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
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
