// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/do-not-call/upload
import type { components } from '../components.js';

export interface paths {
    "/api/do-not-call/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add the numbers of a CSV file to the do-not-call list */
        post: operations["uploadDoNotCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    uploadDoNotCall: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description CSV: a phoneNumber column, or one column of numbers; at most 10,000 rows
                     */
                    file: Blob;
                    workspaceId?: string;
                    defaultCountry?: string;
                };
            };
        };
        responses: {
            /** @description Add the numbers of a CSV file to the do-not-call list */
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
                    "application/json": components["schemas"]["DncImportResult"];
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
