// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/contacts
import type { components } from '../components.js';

export interface paths {
    "/api/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List contacts, newest first; search by name or phone */
        get: operations["listContacts"];
        put?: never;
        /** Create a contact */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listContacts: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List contacts, newest first; search by name or phone */
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
                     *           "_id": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
                     *           "contactName": "Ada Lovelace",
                     *           "phoneNumber": "+14155552671",
                     *           "region": "US",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ContactListItem"][];
                        total: number;
                        page: number;
                        limit: number;
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
    createContact: {
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
                "application/json": components["schemas"]["ContactCreate"];
            };
        };
        responses: {
            /** @description Create a contact */
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
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
