// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agent-tests/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/agent-tests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a test scenario */
        get: operations["getAgentTest"];
        put?: never;
        post?: never;
        /** Delete a test scenario (runs keep their results) */
        delete: operations["deleteAgentTest"];
        options?: never;
        head?: never;
        /** Update a test scenario: the fields sent replace its own */
        patch: operations["updateAgentTest"];
        trace?: never;
    };
}
export interface operations {
    getAgentTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example atst_01JWRG5TAR3M8QK2XD6N9BZ4VC */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a test scenario */
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
                     *       "_id": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "name": "Order status by number",
                     *       "suite": "orders",
                     *       "persona": {
                     *         "type": "script",
                     *         "lines": [
                     *           {
                     *             "text": "Hi, where is my order A17?",
                     *             "delayMs": 400
                     *           },
                     *           {
                     *             "text": "Great, thanks. Bye!",
                     *             "delayMs": 500
                     *           }
                     *         ]
                     *       },
                     *       "maxTurns": 10,
                     *       "checks": [
                     *         {
                     *           "type": "tool_called",
                     *           "tool": "check_order",
                     *           "arguments": {
                     *             "order_id": "A17"
                     *           }
                     *         },
                     *         {
                     *           "type": "says",
                     *           "phrase": "shipped"
                     *         },
                     *         {
                     *           "type": "never_says",
                     *           "phrase": "I am an AI"
                     *         },
                     *         {
                     *           "type": "first_reply_within",
                     *           "ms": 3000
                     *         }
                     *       ],
                     *       "channel": "chat",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AgentTestScenario"];
                };
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
    deleteAgentTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example atst_01JWRG5TAR3M8QK2XD6N9BZ4VC */
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
    updateAgentTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example atst_01JWRG5TAR3M8QK2XD6N9BZ4VC */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "maxTurns": 6
                 *     }
                 */
                "application/json": components["schemas"]["AgentTestScenarioUpdate"];
            };
        };
        responses: {
            /** @description Update a test scenario: the fields sent replace its own */
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
                     *       "_id": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "name": "Order status by number",
                     *       "suite": "orders",
                     *       "persona": {
                     *         "type": "script",
                     *         "lines": [
                     *           {
                     *             "text": "Hi, where is my order A17?",
                     *             "delayMs": 400
                     *           },
                     *           {
                     *             "text": "Great, thanks. Bye!",
                     *             "delayMs": 500
                     *           }
                     *         ]
                     *       },
                     *       "maxTurns": 6,
                     *       "checks": [
                     *         {
                     *           "type": "tool_called",
                     *           "tool": "check_order",
                     *           "arguments": {
                     *             "order_id": "A17"
                     *           }
                     *         },
                     *         {
                     *           "type": "says",
                     *           "phrase": "shipped"
                     *         },
                     *         {
                     *           "type": "never_says",
                     *           "phrase": "I am an AI"
                     *         },
                     *         {
                     *           "type": "first_reply_within",
                     *           "ms": 3000
                     *         }
                     *       ],
                     *       "channel": "chat",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AgentTestScenario"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
