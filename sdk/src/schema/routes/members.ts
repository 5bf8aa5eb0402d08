// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/members
import type { components } from '../components.js';

export interface paths {
    "/api/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's members and their roles (session key) */
        get: operations["listMembers"];
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
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's members and their roles (session key) */
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
                     *       "data": [
                     *         {
                     *           "userId": "6f1c2e84-93b7-4d5a-a0c8-2b1e7f94d3a6",
                     *           "email": "ada@example.com",
                     *           "role": "owner",
                     *           "joinedAt": "2025-06-02T14:03:11.000Z"
                     *         },
                     *         {
                     *           "userId": "0b9d4a27-5c1e-4f83-b6a2-8e7d3c1f5a90",
                     *           "email": "grace@example.com",
                     *           "role": "member",
                     *           "joinedAt": "2025-06-02T15:20:45.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            userId: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                            /** Format: date-time */
                            joinedAt: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
