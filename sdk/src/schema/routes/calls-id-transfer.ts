// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/calls/{id}/transfer
import type { components } from '../components.js';

export interface paths {
    "/api/calls/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer a phone call to an E.164 number or SIP URI, cold or warm, as the transfer tool does (409 no_phone_line for a browser call); optional Idempotency-Key header */
        post: operations["transferCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    transferCall: {
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
                 *       "to": "+14155550142",
                 *       "mode": "warm",
                 *       "summary": "Ada wants to move her appointment."
                 *     }
                 */
                "application/json": components["schemas"]["TransferRequest"];
            };
        };
        responses: {
            /** @description Transfer a phone call to an E.164 number or SIP URI, cold or warm, as the transfer tool does (409 no_phone_line for a browser call); optional Idempotency-Key header */
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
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "transferring"
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
