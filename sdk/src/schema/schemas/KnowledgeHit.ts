// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "chunkId": "kch_01JWRG3ZYR2P6QK9XD4M8BN7TC",
 *       "documentId": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
 *       "documentName": "Parking and hours",
 *       "text": "Free parking is available behind the building on Harbor Street; the first two hours are validated at reception.",
 *       "score": 0.032787,
 *       "vectorScore": 0.612344,
 *       "keywordScore": 2.418,
 *       "section": "Parking",
 *       "start": 96,
 *       "end": 208
 *     }
 */
export type KnowledgeHit = {
    chunkId: string;
    documentId: string;
    documentName: string;
    text: string;
    /** @description fused score (reciprocal rank fusion of vector and keyword ranks), higher is better */
    score: number;
    /** @description cosine similarity of the query and chunk embeddings */
    vectorScore: number;
    /** @description BM25 score of the query words in the chunk (0: no word in common) */
    keywordScore: number;
    /** @description the heading path the chunk sits under */
    section?: string;
    page?: number;
    /** @description offset of the chunk in the document text, in characters */
    start: number;
    end: number;
};
