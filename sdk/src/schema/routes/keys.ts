// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/keys
import type { components } from '../components.js';

export interface paths {
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
}
export interface operations {
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
}
