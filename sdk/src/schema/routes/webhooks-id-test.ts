// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/webhooks/{id}/test
import type { components } from '../components.js';

export interface paths {
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test.ping event to the endpoint */
        post: operations["sendWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    sendWebhookTest: {
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
            /** @description Send a test.ping event to the endpoint */
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
                     *       "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
                     *       "deliveryId": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookTestResult"];
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
