// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /auth/refresh
import type { components } from '../components.js';

export interface paths {
    "/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: a fresh session key from the refresh cookie; workspaceId switches workspace (x-requested-with: dashboard) */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    workspaceId?: string;
                };
            };
        };
        responses: {
            /** @description Dashboard: a fresh session key from the refresh cookie; workspaceId switches workspace (x-requested-with: dashboard) */
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
                     *       "apiKey": "vas_Qm7T2wX9pL4cV8nB1rK6yH3sD5fG0jZaE2uI7oP9tRw",
                     *       "expiresAt": "2025-06-02T14:18:11.000Z",
                     *       "user": {
                     *         "id": "6f1c2e84-93b7-4d5a-a0c8-2b1e7f94d3a6",
                     *         "email": "ada@example.com"
                     *       },
                     *       "workspace": {
                     *         "id": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *         "name": "Bayview Dental",
                     *         "role": "owner"
                     *       },
                     *       "workspaces": [
                     *         {
                     *           "id": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "name": "Bayview Dental",
                     *           "role": "owner"
                     *         },
                     *         {
                     *           "id": "ws_01JWRFYC3RH4V8P2MX6QD9N1TE",
                     *           "name": "Bayview Orthodontics",
                     *           "role": "member"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        apiKey: string;
                        /** Format: date-time */
                        expiresAt: string;
                        user: {
                            id: string;
                            email: string;
                        };
                        workspace: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                        };
                        workspaces: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                        }[];
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
