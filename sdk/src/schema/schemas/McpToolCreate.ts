// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @description Connects an MCP server at config.url; the tools it lists are discovered at save (config.allowed_tools picks which the agent may call).
 * @example {
 *       "name": "Weather",
 *       "type": "mcp",
 *       "description": "Weather forecasts from our MCP server.",
 *       "config": {
 *         "url": "https://mcp.example.com/mcp",
 *         "headers": {
 *           "Authorization": "Bearer mcp_live_8d2f41"
 *         },
 *         "allowed_tools": [
 *           "get_forecast"
 *         ]
 *       }
 *     }
 */
export type McpToolCreate = {
    name: string;
    /**
     * @description discriminator enum property added by openapi-typescript
     * @enum {string}
     */
    type: "mcp";
    description: string;
    templateId?: string;
    config: {
        headers?: {
            [key: string]: string;
        };
        allowed_tools?: string[];
        /** @description The MCP server endpoint (Streamable HTTP, or HTTP+SSE) */
        url: string;
    };
    /** @description Default: `[]`. */
    parameters?: {
        name: string;
        description: string;
        required: boolean;
        /** @enum {string} */
        type?: "string" | "number" | "integer" | "boolean";
        enum?: (string | number | boolean)[];
    }[];
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
