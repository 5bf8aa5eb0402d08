// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/tools
import type { components } from '../components.js';

export interface paths {
    "/api/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tools (no pagination) */
        get: operations["listTools"];
        put?: never;
        /** Create a tool */
        post: operations["createTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listTools: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List tools (no pagination) */
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
                     *           "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *           "name": "check_order_status",
                     *           "type": "http",
                     *           "description": "Looks up the delivery status of an order by its number.",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "createdAt": "2025-06-02T14:03:11.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ToolListItem"][];
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
    createTool: {
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
                 *       "name": "check_order_status",
                 *       "type": "http",
                 *       "description": "Looks up the delivery status of an order by its number.",
                 *       "config": {
                 *         "method": "GET",
                 *         "url": "https://api.example.com/orders/{order_id}/status",
                 *         "headers": {
                 *           "Authorization": "Bearer sk_test_51Hc2xV0a9Q7"
                 *         }
                 *       },
                 *       "parameters": [
                 *         {
                 *           "name": "order_id",
                 *           "description": "The order number the caller reads out, e.g. 10023",
                 *           "required": true
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ToolCreate"];
            };
        };
        responses: {
            /** @description Create a tool */
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
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "check_order_status",
                     *       "type": "http",
                     *       "description": "Looks up the delivery status of an order by its number.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "method": "GET",
                     *         "url": "https://api.example.com/orders/{order_id}/status"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ToolCreated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
