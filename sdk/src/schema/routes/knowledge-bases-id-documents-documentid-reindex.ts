// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/knowledge-bases/{id}/documents/{documentId}/reindex
import type { components } from '../components.js';

export interface paths {
    "/api/knowledge-bases/{id}/documents/{documentId}/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Index a document again (a web page is fetched again); the old chunks serve until the new ones are ready */
        post: operations["reindexKnowledgeDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    reindexKnowledgeDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT */
                id: string;
                /** @example kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW */
                documentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Index a document again (a web page is fetched again); the old chunks serve until the new ones are ready */
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
                     *       "_id": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
                     *       "knowledgeBaseId": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
                     *       "name": "Parking and hours",
                     *       "format": "text",
                     *       "status": "processing",
                     *       "sizeBytes": 214,
                     *       "revision": 2,
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["KnowledgeDocument"];
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
}
