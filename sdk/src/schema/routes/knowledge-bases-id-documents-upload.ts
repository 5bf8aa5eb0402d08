// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/knowledge-bases/{id}/documents/upload
import type { components } from '../components.js';

export interface paths {
    "/api/knowledge-bases/{id}/documents/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a document (TXT, Markdown, HTML, CSV, DOCX; at most 4 MiB); ingested in the background */
        post: operations["uploadKnowledgeDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    uploadKnowledgeDocument: {
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
                "multipart/form-data": components["schemas"]["KnowledgeUploadForm"];
            };
        };
        responses: {
            /** @description Upload a document (TXT, Markdown, HTML, CSV, DOCX; at most 4 MiB); ingested in the background */
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
                     *       "name": "faq.docx",
                     *       "format": "docx",
                     *       "status": "processing",
                     *       "sizeBytes": 18432,
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
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
