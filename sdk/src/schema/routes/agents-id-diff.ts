// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/agents/{id}/diff
import type { components } from '../components.js';

export interface paths {
    "/api/agents/{id}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The fields that differ between two versions, or a version and the draft */
        get: operations["diffAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    diffAgent: {
        parameters: {
            query?: {
                workspaceId?: string;
                from?: "draft" | number;
                to?: "draft" | number;
            };
            header?: never;
            path: {
                /** @example agt_01JWRF9YVRV07ZX0MV7YH6S11D */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fields that differ between two versions, or a version and the draft */
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
                     *       "from": 2,
                     *       "to": "draft",
                     *       "changes": [
                     *         {
                     *           "field": "first_message",
                     *           "before": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
                     *           "after": "Hello from Bayview Dental! I am calling to confirm your appointment tomorrow."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AgentDiff"];
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
