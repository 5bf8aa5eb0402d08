// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

export type KnowledgeUploadForm = {
    /**
     * Format: binary
     * @description PDF, DOCX, TXT, Markdown, HTML or CSV (UTF-8); at most 4 MiB and 500 pages
     */
    file: Blob;
    workspaceId?: string;
    name?: string;
};
