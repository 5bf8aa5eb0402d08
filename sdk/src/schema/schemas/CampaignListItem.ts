// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C",
 *       "name": "June appointment reminders",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "status": "running",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type CampaignListItem = {
    _id: string;
    name: string;
    agentId: string;
    /** @enum {string} */
    status: "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
    statusReason?: string;
    workspaceId: string;
    /** Format: date-time */
    createdAt: string;
};
