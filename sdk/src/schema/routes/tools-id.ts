// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/tools/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/tools/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a tool, header values masked */
        get: operations["getTool"];
        /** Update a tool (only the fields sent change) */
        put: operations["updateTool"];
        post?: never;
        /** Delete a tool */
        delete: operations["deleteTool"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    getTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a tool, header values masked */
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
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "check_order_status",
                     *       "type": "http",
                     *       "description": "Looks up the delivery status of an order by its number.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "method": "GET",
                     *         "url": "https://api.example.com/orders/{order_id}/status",
                     *         "headers": {
                     *           "Authorization": "********"
                     *         }
                     *       },
                     *       "parameters": [
                     *         {
                     *           "name": "order_id",
                     *           "description": "The order number the caller reads out, e.g. 10023",
                     *           "required": true
                     *         }
                     *       ],
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Tool"];
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
    updateTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Looks up the delivery status and expected date of an order.",
                 *       "config": {
                 *         "headers": {
                 *           "Authorization": "********"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ToolUpdate"];
            };
        };
        responses: {
            /** @description Update a tool (only the fields sent change) */
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
                     *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
                     *       "name": "check_order_status",
                     *       "type": "http",
                     *       "description": "Looks up the delivery status and expected date of an order.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "method": "GET",
                     *         "url": "https://api.example.com/orders/{order_id}/status",
                     *         "headers": {
                     *           "Authorization": "********"
                     *         }
                     *       },
                     *       "parameters": [
                     *         {
                     *           "name": "order_id",
                     *           "description": "The order number the caller reads out, e.g. 10023",
                     *           "required": true
                     *         }
                     *       ],
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Tool"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example tool_01JWRFBSERD1BS3W9VV6RZM94Y */
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
}
