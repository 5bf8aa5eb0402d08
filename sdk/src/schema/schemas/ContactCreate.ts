// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "contactName": "Ada Lovelace",
 *       "phoneNumber": "+14155552671",
 *       "region": "US",
 *       "externalFields": {
 *         "company": "Analytical Engines Ltd",
 *         "plan": "pro",
 *         "seats": 12,
 *         "vip": true
 *       }
 *     }
 */
export type ContactCreate = {
    contactName: string;
    phoneNumber: string;
    /** @description free text up to 100 characters, for example "California" or "GB"; derived from the number (ISO 3166-1 alpha-2) when omitted or blank */
    region?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
    /** @description Default: `{}`. */
    externalFields?: {
        [key: string]: string | number | boolean;
    };
};
