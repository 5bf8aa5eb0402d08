// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
 *       "number": "+14155550123",
 *       "status": "active",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
 *     }
 */
export type PhoneNumberBought = {
    _id: string;
    number: string;
    /** @constant */
    status: "active";
    workspaceId: string;
};
