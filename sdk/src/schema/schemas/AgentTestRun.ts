// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

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
export type AgentTestRun = {
    _id: string;
    workspaceId: string;
    agentId: string;
    agentVersion: number | null;
    suite: string | null;
    /** @enum {string} */
    status: "queued" | "running" | "passed" | "failed" | "error";
    scenarios: {
        scenarioId: string;
        name: string;
        /** @enum {string} */
        status: "pending" | "running" | "passed" | "failed" | "error";
        chatId?: string;
        callId?: string;
        recordingUrl?: string;
        transcript?: string;
        endReason?: string;
        toolCalls?: {
            name: string;
            arguments: {
                [key: string]: unknown;
            };
        }[];
        handoff?: boolean;
        checks: {
            type: string;
            label: string;
            passed: boolean;
            evidence: string;
        }[];
        latency?: {
            firstReplyMs: number | null;
            replyMsMedian: number | null;
            replyMsMax: number | null;
        };
        cost: number;
        wallMs?: number;
        persona?: {
            provider: string;
            model: string;
            lines: number;
            inputTokens: number;
            outputTokens: number;
            cost: number;
        };
        error?: string;
        /** @enum {string} */
        previous?: "passed" | "failed" | "error";
    }[];
    passed: number;
    failed: number;
    cost: number;
    previousRunId?: string;
    createdAt: string;
    startedAt?: string;
    completedAt?: string;
};
