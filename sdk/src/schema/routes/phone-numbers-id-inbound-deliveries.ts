// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/phone-numbers/{id}/inbound-deliveries
import type { components } from '../components.js';

export interface paths {
    "/api/phone-numbers/{id}/inbound-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The number's inbound webhook answers, newest first: the call, what the answer did (routed, rejected, or fallback and why), the server's status and time */
        get: operations["listInboundDeliveries"];
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
    listInboundDeliveries: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                /** @example pn_01JWRFFEMRDV3APXSJENM3G73Y */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The number's inbound webhook answers, newest first: the call, what the answer did (routed, rejected, or fallback and why), the server's status and time */
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
                     *           "_id": "dlv_01JWRFXQ4R7N2KD5TB8MZ3VC6W",
                     *           "eventId": "evt_01JWRFXQ3R9H4BD6QT1NZ8KC2V",
                     *           "callId": "call_01JWRFXQ3RK2M7TV5B9QD4XN8C",
                     *           "outcome": "fallback",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "reason": "HTTP 503: only a 2xx answer is used",
                     *           "status": 503,
                     *           "latencyMs": 48,
                     *           "responseExcerpt": "{\"error\":\"maintenance\"}",
                     *           "createdAt": "2025-06-02T16:12:09.310Z"
                     *         },
                     *         {
                     *           "_id": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M",
                     *           "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
                     *           "callId": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *           "outcome": "routed",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "status": 200,
                     *           "latencyMs": 112,
                     *           "responseExcerpt": "{\"variables\":{\"first_name\":\"Ada\"},\"metadata\":{\"crm_id\":\"lead-42\"}}",
                     *           "createdAt": "2025-06-02T15:41:27.804Z"
                     *         }
                     *       ],
                     *       "total": 2,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["InboundDelivery"][];
                        total: number;
                        page: number;
                        limit: number;
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
}
