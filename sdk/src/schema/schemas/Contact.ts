// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
 *       "contactName": "Ada Lovelace",
 *       "phoneNumber": "+14155552671",
 *       "region": "US",
 *       "externalFields": {
 *         "company": "Analytical Engines Ltd",
 *         "plan": "pro",
 *         "seats": 12,
 *         "vip": true
 *       },
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type Contact = {
    _id: string;
    contactName: string;
    phoneNumber: string;
    region: string;
    workspaceId: string;
    externalFields: {
        [key: string]: string | number | boolean;
    };
    /** Format: date-time */
    createdAt: string;
};
