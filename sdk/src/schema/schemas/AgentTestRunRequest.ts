// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "scenarioId": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC"
 *     }
 */
export type AgentTestRunRequest = {
    agentId: string;
    version?: number;
    scenarioId?: string;
    suite?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
