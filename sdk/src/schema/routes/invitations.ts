// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/invitations
import type { components } from '../components.js';

export interface paths {
    "/api/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite an email address to the workspace; answers the invitation link (owners only, with a session key) */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    createInvitation: {
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
                 *       "email": "grace@example.com",
                 *       "role": "member"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @description Default: `"member"`.
                     * @enum {string}
                     */
                    role?: "owner" | "member";
                };
            };
        };
        responses: {
            /** @description Invite an email address to the workspace; answers the invitation link (owners only, with a session key) */
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
                     *       "invitation": {
                     *         "id": "inv_01JWRFWH8R5C2N9TQ7EJ4K6B3A",
                     *         "email": "grace@example.com",
                     *         "role": "member",
                     *         "link": "https://api.example.com/dashboard/accept-invitation#token=Hn4vR8kQ2mX7cT1bW9pL5sZ3dF6gJ0yAe8uK2oI4rVq",
                     *         "expiresAt": "2025-06-09T14:03:11.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        invitation: {
                            id: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "member";
                            /** Format: uri */
                            link: string;
                            /** Format: date-time */
                            expiresAt: string;
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
