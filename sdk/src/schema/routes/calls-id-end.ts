// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/calls/{id}/end
import type { components } from '../components.js';

export interface paths {
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
}
export interface operations {
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
}
