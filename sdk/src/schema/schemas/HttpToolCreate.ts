// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @description Calls your HTTP endpoint: config.method and config.url (placeholders name parameters).
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
export type HttpToolCreate = {
    name: string;
    /**
     * @description discriminator enum property added by openapi-typescript
     * @enum {string}
     */
    type: "http";
    description: string;
    templateId?: string;
    config: {
        /** @enum {string} */
        method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
        url: string;
        headers?: {
            [key: string]: string;
        };
        body?: string | {
            [key: string]: unknown;
        } | unknown[];
        settings?: {
            [key: string]: string | number;
        };
        allowed_tools?: string[];
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
