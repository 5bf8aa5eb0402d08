// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "type": "voice",
 *       "direction": "outbound",
 *       "state": "in-progress",
 *       "from": "+14155550123",
 *       "to": "+14155552671",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "answeredAt": "2025-06-02T14:03:19.000Z"
 *     }
 */
export type LiveCall = {
    id: string;
    agentId: string;
    /** @enum {string} */
    type: "voice" | "chat" | "video";
    /** @enum {string} */
    direction: "outbound" | "inbound";
    /** @enum {string} */
    state: "initiated" | "dialing" | "ringing" | "in-progress" | "completed" | "busy" | "no-answer" | "failed" | "canceled";
    from: string | null;
    to: string;
    /** Format: date-time */
    createdAt: string;
    answeredAt: string | null;
};
