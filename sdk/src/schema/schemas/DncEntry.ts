// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "phoneNumber": "+14155550188",
 *       "source": "api",
 *       "reason": "Asked by email not to be called",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type DncEntry = {
    phoneNumber: string;
    /** @enum {string} */
    source: "api" | "upload" | "opt_out";
    reason?: string;
    callId?: string;
    workspaceId: string;
    /** Format: date-time */
    createdAt: string;
};
