// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "dlv_01JWRFXQ4R7N2KD5TB8MZ3VC6W",
 *       "eventId": "evt_01JWRFXQ3R9H4BD6QT1NZ8KC2V",
 *       "callId": "call_01JWRFXQ3RK2M7TV5B9QD4XN8C",
 *       "outcome": "fallback",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "reason": "HTTP 503: only a 2xx answer is used",
 *       "status": 503,
 *       "latencyMs": 48,
 *       "responseExcerpt": "{\"error\":\"maintenance\"}",
 *       "createdAt": "2025-06-02T16:12:09.310Z"
 *     }
 */
export type InboundDelivery = {
    _id: string;
    eventId: string;
    callId: string;
    /** @enum {string} */
    outcome: "routed" | "rejected" | "fallback";
    agentId?: string;
    reason?: string;
    status?: number;
    latencyMs: number;
    responseExcerpt?: string;
    /** Format: date-time */
    createdAt: string;
};
