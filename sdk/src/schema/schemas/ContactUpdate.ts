// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "contactName": "Ada King",
 *       "externalFields": {
 *         "plan": "enterprise",
 *         "vip": null
 *       }
 *     }
 */
export type ContactUpdate = {
    contactName?: string;
    phoneNumber?: string;
    region?: string | null;
    workspaceId?: string;
    externalFields?: {
        [key: string]: string | number | boolean | null;
    };
};
