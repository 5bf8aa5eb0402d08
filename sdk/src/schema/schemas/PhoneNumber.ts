// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
 *       "number": "+14155550123",
 *       "status": "active",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "agent_version": null,
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "updatedAt": "2025-06-02T15:20:45.000Z"
 *     }
 */
export type PhoneNumber = {
    _id: string;
    number: string;
    /** @constant */
    status: "active";
    workspaceId: string;
    /** @constant */
    type?: "byot";
    agentId: string | null;
    agent_version: number | null;
    telephonyAccountSid?: string;
    inbound_webhook_url?: string;
    inbound_webhook_secret?: string;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
};
