// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
 *       "name": "Front desk FAQ",
 *       "description": "Opening hours, parking, prices and insurance plans.",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "embeddingModel": "text-embedding-3-small",
 *       "dimensions": 256,
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "updatedAt": "2025-06-02T14:03:11.000Z",
 *       "documents": [
 *         {
 *           "_id": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
 *           "knowledgeBaseId": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
 *           "name": "Parking and hours",
 *           "format": "text",
 *           "status": "ready",
 *           "sizeBytes": 214,
 *           "revision": 1,
 *           "createdAt": "2025-06-02T14:03:11.000Z",
 *           "updatedAt": "2025-06-02T15:20:45.000Z",
 *           "chunks": 2,
 *           "characters": 214
 *         }
 *       ]
 *     }
 */
export type KnowledgeBaseDetail<S extends Record<"KnowledgeDocument", unknown>> = {
    _id: string;
    name: string;
    description: string;
    workspaceId: string;
    embeddingModel: string;
    dimensions: number;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
    documents: S["KnowledgeDocument"][];
};
