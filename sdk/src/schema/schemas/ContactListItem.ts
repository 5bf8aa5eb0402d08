// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
 *       "contactName": "Ada Lovelace",
 *       "phoneNumber": "+14155552671",
 *       "region": "US",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
 *     }
 */
export type ContactListItem = {
    _id: string;
    contactName: string;
    phoneNumber: string;
    region: string;
    workspaceId: string;
};
