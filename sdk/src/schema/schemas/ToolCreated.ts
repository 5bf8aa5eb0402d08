// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

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
export type ToolCreated = {
    _id: string;
    name: string;
    /** @enum {string} */
    type: "http" | "integration" | "transfer" | "mcp";
    description: string;
    workspaceId: string;
    templateId?: string;
    /** Format: date-time */
    createdAt: string;
    config?: {
        /** @enum {string} */
        method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
        url?: string;
        body?: string | {
            [key: string]: unknown;
        } | unknown[];
        settings?: {
            [key: string]: string | number;
        };
        allowed_tools?: string[];
    };
    /** @description The tools the MCP server listed at the last save or refresh (mcp tools only). */
    mcp?: {
        /** @enum {string} */
        transport: "streamable_http" | "sse";
        tools: {
            name: string;
            description: string;
            inputSchema: {
                [key: string]: unknown;
            };
        }[];
        refreshedAt: string;
    };
};
