// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/phone-numbers/import
import type { components } from '../components.js';

export interface paths {
    "/api/phone-numbers/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a number from your own telephony account (BYOT); points its webhooks at the platform */
        post: operations["importPhoneNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    importPhoneNumber: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "phoneNumber": "+14155550142",
                 *       "telephonyAccountSid": "AC3f9c2a71d4e85b06a7c1e9d2b4f60a58",
                 *       "telephonyAuthToken": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
                 *     }
                 */
                "application/json": components["schemas"]["PhoneNumberImport"];
            };
        };
        responses: {
            /** @description Import a number from your own telephony account (BYOT); points its webhooks at the platform */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *       "number": "+14155550142",
                     *       "status": "active",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "type": "byot"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumberImported"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableContent"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
