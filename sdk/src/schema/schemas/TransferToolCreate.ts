// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @description Hands the caller over to config.url, a tel: number or sip: URI.
 * @example {
 *       "name": "transfer_to_sales",
 *       "type": "transfer",
 *       "description": "Hands the caller over to the sales team when they ask for a quote.",
 *       "config": {
 *         "url": "tel:+14155550123"
 *       }
 *     }
 */
export type TransferToolCreate = {
    name: string;
    /**
     * @description discriminator enum property added by openapi-typescript
     * @enum {string}
     */
    type: "transfer";
    description: string;
    templateId?: string;
    config: {
        /** @enum {string} */
        method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
        /** @description tel:+<E.164 number> or sip:<user>@<host> */
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
