// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/contacts/upload
import type { components } from '../components.js';

export interface paths {
    "/api/contacts/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import contacts from a CSV or .xlsx file (see docs/contact-import.md) */
        post: operations["uploadContacts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    uploadContacts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["ContactImportForm"];
            };
        };
        responses: {
            /** @description Import contacts from a CSV or .xlsx file (see docs/contact-import.md) */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
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
                    "application/json": components["schemas"]["ContactImportResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
