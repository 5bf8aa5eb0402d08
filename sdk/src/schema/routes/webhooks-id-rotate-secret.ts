// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/webhooks/{id}/rotate-secret
import type { components } from '../components.js';

export interface paths {
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the signing secret; the old one keeps signing for 24 hours */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    rotateWebhookSecret: {
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
            /** @description Rotate the signing secret; the old one keeps signing for 24 hours */
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
                     *       "secret": "whsec_3q2+7wAAAAB0ZXN0LXNlY3JldC1yb3RhdGVkLWtleS0wMQ==",
                     *       "previousSecretExpiresAt": "2025-06-03T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecretRotated"];
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
