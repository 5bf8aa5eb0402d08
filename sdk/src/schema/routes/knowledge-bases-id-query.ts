// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/knowledge-bases/{id}/query
import type { components } from '../components.js';

export interface paths {
    "/api/knowledge-bases/{id}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search a knowledge base: the best chunks with their scores and sources */
        post: operations["queryKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    queryKnowledgeBase: {
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
                 *       "query": "Where can I park?",
                 *       "k": 3
                 *     }
                 */
                "application/json": components["schemas"]["KnowledgeQuery"];
            };
        };
        responses: {
            /** @description Search a knowledge base: the best chunks with their scores and sources */
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
                     *           "chunkId": "kch_01JWRG3ZYR2P6QK9XD4M8BN7TC",
                     *           "documentId": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
                     *           "documentName": "Parking and hours",
                     *           "text": "Free parking is available behind the building on Harbor Street; the first two hours are validated at reception.",
                     *           "score": 0.032787,
                     *           "vectorScore": 0.612344,
                     *           "keywordScore": 2.418,
                     *           "section": "Parking",
                     *           "start": 96,
                     *           "end": 208
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["KnowledgeHit"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
