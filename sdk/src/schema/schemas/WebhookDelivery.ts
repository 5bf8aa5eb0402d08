// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M",
 *       "endpointId": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
 *       "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
 *       "eventType": "call.ended",
 *       "status": "succeeded",
 *       "attempts": [
 *         {
 *           "at": "2025-06-02T14:04:47.120Z",
 *           "status": 503,
 *           "latencyMs": 212,
 *           "responseExcerpt": "{\"error\":\"maintenance\"}"
 *         },
 *         {
 *           "at": "2025-06-02T14:04:52.701Z",
 *           "status": 200,
 *           "latencyMs": 87,
 *           "responseExcerpt": "{\"ok\":true}"
 *         }
 *       ],
 *       "createdAt": "2025-06-02T14:04:47.090Z",
 *       "updatedAt": "2025-06-02T14:04:52.788Z"
 *     }
 */
export type WebhookDelivery = {
    _id: string;
    endpointId: string;
    eventId: string;
    /** @enum {string} */
    eventType: "call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping";
    /** @enum {string} */
    status: "pending" | "retrying" | "succeeded" | "failed";
    attempts: {
        /** Format: date-time */
        at: string;
        status?: number;
        error?: string;
        latencyMs: number;
        responseExcerpt?: string;
    }[];
    /** Format: date-time */
    nextAttemptAt?: string;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
};
