// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/phone-numbers/buy
import type { components } from '../components.js';

export interface paths {
    "/api/phone-numbers/buy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy a number for the workspace */
        post: operations["buyPhoneNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    buyPhoneNumber: {
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
                 *       "phoneNumber": "+14155550123"
                 *     }
                 */
                "application/json": components["schemas"]["PhoneNumberBuy"];
            };
        };
        responses: {
            /** @description Buy a number for the workspace */
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
                     *       "number": "+14155550123",
                     *       "status": "active",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
                     *     }
                     */
                    "application/json": components["schemas"]["PhoneNumberBought"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
