// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "added": 120,
 *       "existing": 3,
 *       "errors": [
 *         {
 *           "row": 7,
 *           "value": "12345",
 *           "message": "not a phone number in E.164 form (or set defaultCountry)"
 *         }
 *       ]
 *     }
 */
export type DncImportResult = {
    added: number;
    existing: number;
    errors: {
        row: number;
        value: string;
        message: string;
    }[];
};
