// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/calls
import type { components } from '../components.js';

export interface paths {
    "/api/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the calls that are not over (initiated, dialing, ringing, in-progress), newest first; optional agentId (docs/calls.md, "Following a call") */
        get: operations["listCalls"];
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
    listCalls: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the calls that are not over (initiated, dialing, ringing, in-progress), newest first; optional agentId (docs/calls.md, "Following a call") */
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
                     *           "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "type": "voice",
                     *           "direction": "outbound",
                     *           "state": "in-progress",
                     *           "from": "+14155550123",
                     *           "to": "+14155552671",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "answeredAt": "2025-06-02T14:03:19.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["LiveCall"][];
                        total: number;
                        page: number;
                        limit: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
