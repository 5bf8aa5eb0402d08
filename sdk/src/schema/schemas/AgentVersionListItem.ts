// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "version": 2,
 *       "note": "Warm transfers to the front desk",
 *       "publishedAt": "2025-06-02T15:20:45.000Z"
 *     }
 */
export type AgentVersionListItem = {
    agentId: string;
    version: number;
    note: string;
    /** Format: date-time */
    publishedAt: string;
};
