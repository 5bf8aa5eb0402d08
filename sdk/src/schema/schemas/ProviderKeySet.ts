// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "apiKey": "3f1b9c0d2e7a48f5b6c1d09e8a7f2b4c5d6e9a0f"
 *     }
 */
export type ProviderKeySet = {
    apiKey: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
