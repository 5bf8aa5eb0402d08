// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @description A ready-made integration: templateId, its config.settings and required headers (GET /api/tool-templates).
 * @example {
 *       "name": "book_demo",
 *       "type": "integration",
 *       "description": "Books a 30-minute demo in our Cal.com calendar.",
 *       "templateId": "calcom.book_meeting",
 *       "config": {
 *         "headers": {
 *           "Authorization": "Bearer cal_live_4f1c9a"
 *         },
 *         "settings": {
 *           "event_type_id": 123456
 *         }
 *       }
 *     }
 */
export type IntegrationToolCreate = {
    name: string;
    /**
     * @description discriminator enum property added by openapi-typescript
     * @enum {string}
     */
    type: "integration";
    description: string;
    templateId: string;
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
