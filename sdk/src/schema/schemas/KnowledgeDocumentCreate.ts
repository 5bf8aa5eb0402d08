// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "name": "Parking and hours",
 *       "text": "Free parking is available behind the building on Harbor Street; the first two hours are validated at reception. We are open Monday to Friday, 8am to 6pm."
 *     }
 */
export type KnowledgeDocumentCreate = {
    name?: string;
    text?: string;
    /** Format: uri */
    url?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
