// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /auth/sign-up
import type { components } from '../components.js';

export interface paths {
    "/auth/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: create an account and its workspace; a confirmation code is emailed (the same answer for a taken address) */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    signUp: {
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
                 *       "email": "ada@example.com",
                 *       "password": "Correct-horse-9",
                 *       "workspaceName": "Bayview Dental"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                    workspaceName: string;
                };
            };
        };
        responses: {
            /** @description Dashboard: create an account and its workspace; a confirmation code is emailed (the same answer for a taken address) */
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
                     *       "confirmationRequired": true
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        confirmationRequired: true;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
