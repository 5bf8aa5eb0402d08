// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/tools/{id}/refresh
import type { components } from '../components.js';

export interface paths {
    "/api/tools/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Discover an mcp tool's server tools again */
        post: operations["refreshTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    refreshTool: {
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
            /** @description Discover an mcp tool's server tools again */
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
                     *       "name": "Weather",
                     *       "type": "mcp",
                     *       "description": "Weather forecasts from our MCP server.",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "config": {
                     *         "url": "https://mcp.example.com/mcp",
                     *         "headers": {
                     *           "Authorization": "********"
                     *         },
                     *         "allowed_tools": [
                     *           "get_forecast"
                     *         ]
                     *       },
                     *       "parameters": [],
                     *       "mcp": {
                     *         "transport": "streamable_http",
                     *         "tools": [
                     *           {
                     *             "name": "get_forecast",
                     *             "description": "The weather forecast for a city.",
                     *             "inputSchema": {
                     *               "type": "object",
                     *               "properties": {
                     *                 "city": {
                     *                   "type": "string",
                     *                   "description": "The city"
                     *                 }
                     *               },
                     *               "required": [
                     *                 "city"
                     *               ]
                     *             }
                     *           },
                     *           {
                     *             "name": "get_alerts",
                     *             "description": "Severe weather alerts for a region.",
                     *             "inputSchema": {
                     *               "type": "object",
                     *               "properties": {
                     *                 "region": {
                     *                   "type": "string"
                     *                 }
                     *               },
                     *               "required": [
                     *                 "region"
                     *               ]
                     *             }
                     *           }
                     *         ],
                     *         "refreshedAt": "2025-06-02T15:20:45.000Z"
                     *       },
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
}
