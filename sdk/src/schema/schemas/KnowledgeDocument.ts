// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
 *       "knowledgeBaseId": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
 *       "name": "Parking and hours",
 *       "format": "text",
 *       "status": "processing",
 *       "sizeBytes": 214,
 *       "revision": 1,
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "updatedAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type KnowledgeDocument = {
    _id: string;
    knowledgeBaseId: string;
    name: string;
    /** @enum {string} */
    format: "text" | "markdown" | "html" | "csv" | "docx" | "pdf" | "url";
    /** @enum {string} */
    status: "processing" | "ready" | "failed";
    /** @description why ingestion failed (status failed) */
    error?: string;
    sizeBytes: number;
    url?: string;
    chunks?: number;
    characters?: number;
    revision: number;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
};
