// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "query": "Where can I park?",
 *       "k": 3
 *     }
 */
export type KnowledgeQuery = {
    query: string;
    /** @description Default: `5`. */
    k?: number;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
