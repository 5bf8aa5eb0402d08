// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/contacts/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a contact */
        get: operations["getContact"];
        put?: never;
        post?: never;
        /** Delete a contact */
        delete: operations["deleteContact"];
        options?: never;
        head?: never;
        /** Update a contact (JSON merge patch) */
        patch: operations["updateContact"];
        trace?: never;
    };
}
export interface operations {
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example ct_01JWRFDM1R9CFJ88P7TD5FBWNC */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a contact */
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
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example ct_01JWRFDM1R9CFJ88P7TD5FBWNC */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example ct_01JWRFDM1R9CFJ88P7TD5FBWNC */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "contactName": "Ada King",
                 *       "externalFields": {
                 *         "plan": "enterprise",
                 *         "vip": null
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ContactUpdate"];
            };
        };
        responses: {
            /** @description Update a contact (JSON merge patch) */
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
                     *       "_id": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
                     *       "contactName": "Ada King",
                     *       "phoneNumber": "+14155552671",
                     *       "region": "US",
                     *       "externalFields": {
                     *         "company": "Analytical Engines Ltd",
                     *         "plan": "enterprise",
                     *         "seats": 12
                     *       },
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
