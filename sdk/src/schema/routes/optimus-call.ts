// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/optimus/call
import type { components } from '../components.js';

export interface paths {
    "/api/optimus/call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start an outbound phone call (alias of /api/optimus/phone-call) */
        post: operations["startCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    startCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body within 24 hours gets the first answer and starts nothing; the same key with another body is 422 idempotency_key_reused. Use a new random value (e.g. a UUID) per call. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "phoneNumber": "+14155552671",
                 *       "phoneNumberId": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                 *       "contactName": "Ada Lovelace",
                 *       "variables": {
                 *         "first_name": "Ada",
                 *         "appointment": "3 June at 10:30"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PhoneCallRequest"];
            };
        };
        responses: {
            /** @description Start an outbound phone call (alias of /api/optimus/phone-call) */
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
                     *       "call_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "status": "initiated"
                     *     }
                     */
                    "application/json": components["schemas"]["CallStarted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
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
