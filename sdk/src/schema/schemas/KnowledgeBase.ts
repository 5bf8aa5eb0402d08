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
 *       "updatedAt": "2025-06-02T14:03:11.000Z"
 *     }
 */
export type KnowledgeBase = {
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
};
