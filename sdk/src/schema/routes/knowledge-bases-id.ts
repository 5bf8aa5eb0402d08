// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/knowledge-bases/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/knowledge-bases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a knowledge base with its documents and their ingestion status */
        get: operations["getKnowledgeBase"];
        put?: never;
        post?: never;
        /** Delete a knowledge base, its documents, chunks and vectors */
        delete: operations["deleteKnowledgeBase"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    getKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a knowledge base with its documents and their ingestion status */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
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
                    "application/json": components["schemas"]["KnowledgeBaseDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
