// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "name": "Front desk FAQ",
 *       "description": "Opening hours, parking, prices and insurance plans."
 *     }
 */
export type KnowledgeBaseCreate = {
    name: string;
    /** @description Default: `""`. */
    description?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
