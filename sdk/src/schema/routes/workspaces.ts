// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/workspaces
import type { components } from '../components.js';

export interface paths {
    "/api/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create another workspace, owned by the signed-in user (session key); switch to it with /auth/refresh */
        post: operations["createUserWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    createUserWorkspace: {
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
                 *       "name": "Bayview Orthodontics"
                 *     }
                 */
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Create another workspace, owned by the signed-in user (session key); switch to it with /auth/refresh */
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
                     *       "workspace": {
                     *         "id": "ws_01JWRFYC3RH4V8P2MX6QD9N1TE",
                     *         "name": "Bayview Orthodontics",
                     *         "role": "owner"
                     *       }
                     *     }
                     */
                    "application/json": {
                        workspace: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
