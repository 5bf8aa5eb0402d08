// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/webhooks/{id}/replay
import type { components } from '../components.js';

export interface paths {
    "/api/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver stored events again: one by id, or a time range. Limited per endpoint and per workspace, with an hourly budget of replayed deliveries: a range beyond what is left is cut short (truncated, nextSince), a spent budget is 429 */
        post: operations["replayWebhookEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    replayWebhookEvents: {
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
                 *       "since": "2025-06-02T00:00:00Z",
                 *       "until": "2025-06-02T23:59:59Z"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookReplay"];
            };
        };
        responses: {
            /** @description Deliver stored events again: one by id, or a time range. Limited per endpoint and per workspace, with an hourly budget of replayed deliveries: a range beyond what is left is cut short (truncated, nextSince), a spent budget is 429 */
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
                     *       "replayed": 1,
                     *       "deliveryIds": [
                     *         "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M"
                     *       ],
                     *       "truncated": false
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookReplayResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
