// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agent-tests
import type { components } from '../components.js';

export interface paths {
    "/api/agent-tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List test scenarios, newest first (optionally one suite) */
        get: operations["listAgentTests"];
        put?: never;
        /** Create a test scenario: a scripted caller, a turn limit and the checks its conversation must pass */
        post: operations["createAgentTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listAgentTests: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                /** @description only this suite */
                suite?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List test scenarios, newest first (optionally one suite) */
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
                     *           "_id": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "name": "Order status by number",
                     *           "suite": "orders",
                     *           "persona": {
                     *             "type": "script",
                     *             "lines": [
                     *               {
                     *                 "text": "Hi, where is my order A17?",
                     *                 "delayMs": 400
                     *               },
                     *               {
                     *                 "text": "Great, thanks. Bye!",
                     *                 "delayMs": 500
                     *               }
                     *             ]
                     *           },
                     *           "maxTurns": 10,
                     *           "checks": [
                     *             {
                     *               "type": "tool_called",
                     *               "tool": "check_order",
                     *               "arguments": {
                     *                 "order_id": "A17"
                     *               }
                     *             },
                     *             {
                     *               "type": "says",
                     *               "phrase": "shipped"
                     *             },
                     *             {
                     *               "type": "never_says",
                     *               "phrase": "I am an AI"
                     *             },
                     *             {
                     *               "type": "first_reply_within",
                     *               "ms": 3000
                     *             }
                     *           ],
                     *           "channel": "chat",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "updatedAt": "2025-06-02T15:20:45.000Z"
                     *         },
                     *         {
                     *           "_id": "atst_01JWRG5VB2K9QK3XD6N9BZ4VEX",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "name": "Refund, impatient caller",
                     *           "suite": "orders",
                     *           "channel": "chat",
                     *           "persona": {
                     *             "type": "model",
                     *             "instructions": "You are Sam. Order A17 arrived broken and you want your money back, not a replacement. You are short-tempered but polite. Once a refund is confirmed, thank the agent and hang up.",
                     *             "firstLine": "Hi, my order A17 arrived broken."
                     *           },
                     *           "maxTurns": 8,
                     *           "checks": [
                     *             {
                     *               "type": "tool_called",
                     *               "tool": "refund_order",
                     *               "arguments": {
                     *                 "order_id": "A17"
                     *               }
                     *             },
                     *             {
                     *               "type": "never_says",
                     *               "phrase": "replacement is the only option"
                     *             }
                     *           ],
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "updatedAt": "2025-06-02T15:20:45.000Z"
                     *         }
                     *       ],
                     *       "total": 2,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AgentTestScenario"][];
                        total: number;
                        page: number;
                        limit: number;
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
    createAgentTest: {
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
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["AgentTestScenarioCreate"];
            };
        };
        responses: {
            /** @description Create a test scenario: a scripted caller, a turn limit and the checks its conversation must pass */
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
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
