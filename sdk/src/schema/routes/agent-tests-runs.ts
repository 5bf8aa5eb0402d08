// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agent-tests/runs
import type { components } from '../components.js';

export interface paths {
    "/api/agent-tests/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List test runs, newest first */
        get: operations["listTestRuns"];
        put?: never;
        /** Run one scenario or a suite against an agent's draft or a published version; the run plays in the background (test_run.completed when it is over) */
        post: operations["startTestRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listTestRuns: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List test runs, newest first */
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
                     *           "_id": "trun_01JWRG7N0R6P1QK4XB8D3MZ7TW",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "agentVersion": 3,
                     *           "suite": "orders",
                     *           "status": "failed",
                     *           "scenarios": [
                     *             {
                     *               "scenarioId": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
                     *               "name": "Order status by number",
                     *               "status": "failed",
                     *               "chatId": "call_01JWRFM8Q2D7XK4TNV9B3C6YHZ",
                     *               "transcript": "agent: Hello! How can I help?\nuser: Hi, where is my order A17?\nagent: Let me look that up. It is being packed.\nuser: Great, thanks. Bye!\nagent: Goodbye!",
                     *               "endReason": "customer_hangup",
                     *               "toolCalls": [
                     *                 {
                     *                   "name": "check_order",
                     *                   "arguments": {
                     *                     "order_id": "A17"
                     *                   }
                     *                 }
                     *               ],
                     *               "handoff": false,
                     *               "checks": [
                     *                 {
                     *                   "type": "tool_called",
                     *                   "label": "calls check_order with {\"order_id\":\"A17\"}",
                     *                   "passed": true,
                     *                   "evidence": "check_order({\"order_id\":\"A17\"})"
                     *                 },
                     *                 {
                     *                   "type": "says",
                     *                   "label": "says \"shipped\"",
                     *                   "passed": false,
                     *                   "evidence": "no agent line says it"
                     *                 },
                     *                 {
                     *                   "type": "never_says",
                     *                   "label": "never says \"I am an AI\"",
                     *                   "passed": true,
                     *                   "evidence": "no agent line says it"
                     *                 },
                     *                 {
                     *                   "type": "first_reply_within",
                     *                   "label": "first reply within 3000 ms",
                     *                   "passed": true,
                     *                   "evidence": "first reply after 820 ms"
                     *                 }
                     *               ],
                     *               "latency": {
                     *                 "firstReplyMs": 820,
                     *                 "replyMsMedian": 640,
                     *                 "replyMsMax": 820
                     *               },
                     *               "cost": 0.04,
                     *               "wallMs": 2310,
                     *               "previous": "passed"
                     *             },
                     *             {
                     *               "scenarioId": "atst_01JWRG5VB2K9QK3XD6N9BZ4VEX",
                     *               "name": "Refund, impatient caller",
                     *               "status": "passed",
                     *               "chatId": "call_01JWRG8C4Q7N2XD5K9BZ3MT6VA",
                     *               "transcript": "agent: Hello! How can I help?\nuser: Hi, my order A17 arrived broken.\nagent: Sorry to hear that. A replacement or a refund?\nuser: A refund, please.\nagent: Done: the refund for A17 is on its way.\nuser: Thanks, bye.\nagent: Goodbye!",
                     *               "endReason": "customer_hangup",
                     *               "toolCalls": [
                     *                 {
                     *                   "name": "refund_order",
                     *                   "arguments": {
                     *                     "order_id": "A17"
                     *                   }
                     *                 }
                     *               ],
                     *               "handoff": false,
                     *               "checks": [
                     *                 {
                     *                   "type": "tool_called",
                     *                   "label": "calls refund_order with {\"order_id\":\"A17\"}",
                     *                   "passed": true,
                     *                   "evidence": "refund_order({\"order_id\":\"A17\"})"
                     *                 },
                     *                 {
                     *                   "type": "never_says",
                     *                   "label": "never says \"replacement is the only option\"",
                     *                   "passed": true,
                     *                   "evidence": "no agent line says it"
                     *                 }
                     *               ],
                     *               "latency": {
                     *                 "firstReplyMs": 760,
                     *                 "replyMsMedian": 700,
                     *                 "replyMsMax": 910
                     *               },
                     *               "cost": 0.12,
                     *               "wallMs": 4120,
                     *               "persona": {
                     *                 "provider": "openai",
                     *                 "model": "gpt-4o-mini",
                     *                 "lines": 3,
                     *                 "inputTokens": 812,
                     *                 "outputTokens": 16,
                     *                 "cost": 0.06
                     *               },
                     *               "previous": "passed"
                     *             }
                     *           ],
                     *           "passed": 1,
                     *           "failed": 1,
                     *           "cost": 0.16,
                     *           "previousRunId": "trun_01JWRG6B8R2N5QK7XD1M4BZ9TC",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "startedAt": "2025-06-02T14:03:11.000Z",
                     *           "completedAt": "2025-06-02T14:03:14.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AgentTestRun"][];
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
    startTestRun: {
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
                 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "scenarioId": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC"
                 *     }
                 */
                "application/json": components["schemas"]["AgentTestRunRequest"];
            };
        };
        responses: {
            /** @description Run one scenario or a suite against an agent's draft or a published version; the run plays in the background (test_run.completed when it is over) */
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
                     *       "_id": "trun_01JWRG7N0R6P1QK4XB8D3MZ7TW",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "agentVersion": null,
                     *       "suite": null,
                     *       "status": "queued",
                     *       "scenarios": [
                     *         {
                     *           "scenarioId": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
                     *           "name": "Order status by number",
                     *           "status": "pending",
                     *           "checks": [],
                     *           "cost": 0
                     *         }
                     *       ],
                     *       "passed": 1,
                     *       "failed": 0,
                     *       "cost": 0,
                     *       "createdAt": "2025-06-02T14:03:11.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AgentTestRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
