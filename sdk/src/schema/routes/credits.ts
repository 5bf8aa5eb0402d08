// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/credits
import type { components } from '../components.js';

export interface paths {
    "/api/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credit balance, reserved credits and usage per day over the last 30 days */
        get: operations["getCredits"];
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
    getCredits: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Credit balance, reserved credits and usage per day over the last 30 days */
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
                     *       "balance": 412.5,
                     *       "reserved": 10,
                     *       "usage": [
                     *         {
                     *           "day": "2025-06-01",
                     *           "credits": 18.25,
                     *           "calls": 7
                     *         },
                     *         {
                     *           "day": "2025-06-02",
                     *           "credits": 9.5,
                     *           "calls": 4
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        balance: number;
                        reserved: number;
                        usage: {
                            /** Format: date */
                            day: string;
                            credits: number;
                            calls: number;
                        }[];
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
}
