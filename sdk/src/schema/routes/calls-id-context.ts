// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/calls/{id}/context
import type { components } from '../components.js';

export interface paths {
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
}
export interface operations {
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
}
