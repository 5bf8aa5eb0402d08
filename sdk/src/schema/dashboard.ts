// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// The "Dashboard" operations.
import type { components } from './components.js';

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
    "/auth/confirm-sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: confirm the email address with its code */
        post: operations["confirmSignUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/resend-confirmation-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: email a new sign-up confirmation code, replacing the last (the same answer for an unknown or confirmed address) */
        post: operations["resendConfirmationCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: sign in; answers a session key and sets the HttpOnly refresh cookie */
        post: operations["signIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
    "/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: sign out (the user's session keys and refresh token revoked, the cookie cleared) */
        post: operations["signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: email a password reset code (the same answer for an unknown address) */
        post: operations["forgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: set a new password with the emailed code */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/accept-invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dashboard: join a workspace with an invitation's token (refresh cookie; x-requested-with: dashboard) */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspace's API keys (never their values); owners only, with a session key */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key (full or widget); its value is shown once, in this answer; owners only, with a session key */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key: refused from its next request on; owners only, with a session key */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
    confirmSignUp: {
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
                 *       "code": "482913"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    code: string;
                };
            };
        };
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
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
    resendConfirmationCode: {
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
                 *       "email": "ada@example.com"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Dashboard: email a new sign-up confirmation code, replacing the last (the same answer for an unknown or confirmed address) */
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
                     *       "message": "If this address is waiting for confirmation, a new code is on its way."
                     *     }
                     */
                    "application/json": {
                        message: string;
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
    signIn: {
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
                 *       "password": "Correct-horse-9"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Dashboard: sign in; answers a session key and sets the HttpOnly refresh cookie */
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
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            403: components["responses"]["Forbidden"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalServerError"];
        };
    };
    forgotPassword: {
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
                 *       "email": "ada@example.com"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Dashboard: email a password reset code (the same answer for an unknown address) */
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
                     *       "message": "If an account exists for this address, a reset code is on its way."
                     *     }
                     */
                    "application/json": {
                        message: string;
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
    resetPassword: {
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
                 *       "code": "730165",
                 *       "password": "Battery-staple-4"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email: string;
                    code: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
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
    acceptInvitation: {
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
                 *       "token": "Hn4vR8kQ2mX7cT1bW9pL5sZ3dF6gJ0yAe8uK2oI4rVq"
                 *     }
                 */
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Dashboard: join a workspace with an invitation's token (refresh cookie; x-requested-with: dashboard) */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
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
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the workspace's API keys (never their values); owners only, with a session key */
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
                     *           "id": "key_01JWRFTPNR8Q1B6ZK4XD3M2V7H",
                     *           "name": "Production server",
                     *           "scope": "full",
                     *           "prefix": "vak_3fA9xY",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "lastUsedAt": "2025-06-02T15:20:45.000Z"
                     *         },
                     *         {
                     *           "id": "key_01JWRFTPNR8Q1B6ZK4XD3M2V7J",
                     *           "name": "Website widget",
                     *           "scope": "widget",
                     *           "prefix": "vak_Lm2Qw8",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "lastUsedAt": null,
                     *           "agentIds": [
                     *             "agt_01JWRF9YVRV07ZX0MV7YH6S11D"
                     *           ],
                     *           "origins": [
                     *             "https://www.bayviewdental.example"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            scope: "full" | "widget";
                            prefix: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUsedAt: string | null;
                            agentIds?: string[];
                            origins?: string[];
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
    createApiKey: {
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
                 *       "name": "Production server",
                 *       "scope": "full"
                 *     }
                 */
                "application/json": {
                    name: string;
                    /**
                     * @description Default: `"full"`.
                     * @enum {string}
                     */
                    scope?: "full" | "widget";
                    agentIds?: string[];
                    origins?: string[];
                };
            };
        };
        responses: {
            /** @description Create an API key (full or widget); its value is shown once, in this answer; owners only, with a session key */
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
                     *       "key": {
                     *         "id": "key_01JWRFTPNR8Q1B6ZK4XD3M2V7H",
                     *         "name": "Production server",
                     *         "scope": "full",
                     *         "prefix": "vak_3fA9xY",
                     *         "createdAt": "2025-06-02T14:03:11.000Z",
                     *         "lastUsedAt": null
                     *       },
                     *       "value": "vak_3fA9xYb7Kq2Lm8Nw4Rt6Vz1Cd5Fh0Jp9Sg3Xe7Ua2Wo"
                     *     }
                     */
                    "application/json": {
                        key: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            scope: "full" | "widget";
                            prefix: string;
                            /** Format: date-time */
                            createdAt: string;
                            lastUsedAt: string | null;
                            agentIds?: string[];
                            origins?: string[];
                        };
                        value: string;
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
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example key_01JWRFTPNR8Q1B6ZK4XD3M2V7H */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
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
