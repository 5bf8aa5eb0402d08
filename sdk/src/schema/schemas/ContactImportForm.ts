// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

export type ContactImportForm = {
    /**
     * Format: binary
     * @description CSV (UTF-8, header row) or .xlsx; at most 4 MiB
     */
    file: Blob;
    /** @description Required: the API key's workspace (403 for another one). */
    workspaceId: string;
    /** @description ISO 3166-1 alpha-2 country for numbers written without + */
    defaultCountry?: string;
};
