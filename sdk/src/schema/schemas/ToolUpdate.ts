// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

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
export type ToolUpdate = {
    name?: string;
    /** @enum {string} */
    type?: "http" | "integration" | "transfer" | "mcp";
    description?: string;
    templateId?: string;
    config?: {
        /** @enum {string} */
        method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
        url?: string;
        headers?: {
            [key: string]: string;
        };
        body?: string | {
            [key: string]: unknown;
        } | unknown[];
        settings?: {
            [key: string]: string | number;
        };
        /** @description null: back to every tool the server lists */
        allowed_tools?: string[] | null;
    };
    parameters?: {
        name: string;
        description: string;
        required: boolean;
        /** @enum {string} */
        type?: "string" | "number" | "integer" | "boolean";
        enum?: (string | number | boolean)[];
    }[];
    workspaceId?: string;
};
