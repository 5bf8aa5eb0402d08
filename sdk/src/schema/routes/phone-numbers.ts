// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/phone-numbers
import type { components } from '../components.js';

export interface paths {
    "/api/phone-numbers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List phone numbers, newest first */
        get: operations["listPhoneNumbers"];
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
    listPhoneNumbers: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List phone numbers, newest first */
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
                     *           "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
                     *           "number": "+14155550123",
                     *           "status": "active",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "agent_version": null,
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "updatedAt": "2025-06-02T15:20:45.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["PhoneNumber"][];
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
}
