// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "imported": 2,
 *       "skipped": 1,
 *       "errors": [
 *         {
 *           "row": 4,
 *           "column": "phoneNumber",
 *           "value": "555-0199",
 *           "message": "is not a valid phone number"
 *         }
 *       ]
 *     }
 */
export type ContactImportResult<S extends Record<"ContactImportRowError", unknown>> = {
    imported: number;
    skipped: number;
    errors: S["ContactImportRowError"][];
    /** @description names the contacts this upload wrote: a campaign can call them (docs/campaigns.md) */
    importId?: string;
};
