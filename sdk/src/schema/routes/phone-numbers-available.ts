// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/phone-numbers/available
import type { components } from '../components.js';

export interface paths {
    "/api/phone-numbers/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search numbers for sale (buy takes one of these) */
        get: operations["searchPhoneNumbers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    searchPhoneNumbers: {
        parameters: {
            query?: {
                workspaceId?: string;
                /** @example US */
                country?: string;
                /** @example 415 */
                areaCode?: string;
                contains?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Search numbers for sale (buy takes one of these) */
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
                     *       "data": [
                     *         {
                     *           "number": "+14155550123",
                     *           "friendlyName": "(415) 555-0123",
                     *           "locality": "San Francisco",
                     *           "region": "CA",
                     *           "postalCode": "94103",
                     *           "country": "US",
                     *           "capabilities": {
                     *             "voice": true,
                     *             "sms": true,
                     *             "mms": true
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AvailablePhoneNumber"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
