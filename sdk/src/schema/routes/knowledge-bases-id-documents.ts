// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/knowledge-bases/{id}/documents
import type { components } from '../components.js';

export interface paths {
    "/api/knowledge-bases/{id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the documents of a knowledge base, newest first */
        get: operations["listKnowledgeDocuments"];
        put?: never;
        /** Add plain text or a web page by URL; ingested in the background (status processing, then ready or failed) */
        post: operations["createKnowledgeDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listKnowledgeDocuments: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: never;
            path: {
                /** @example kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the documents of a knowledge base, newest first */
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
                     *       "data": [
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
                    "application/json": {
                        data: components["schemas"]["KnowledgeDocument"][];
                    };
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
    createKnowledgeDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Parking and hours",
                 *       "text": "Free parking is available behind the building on Harbor Street; the first two hours are validated at reception. We are open Monday to Friday, 8am to 6pm."
                 *     }
                 */
                "application/json": components["schemas"]["KnowledgeDocumentCreate"];
            };
        };
        responses: {
            /** @description Add plain text or a web page by URL; ingested in the background (status processing, then ready or failed) */
            201: {
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
                     *       "revision": 1,
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T14:03:11.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["KnowledgeDocument"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
