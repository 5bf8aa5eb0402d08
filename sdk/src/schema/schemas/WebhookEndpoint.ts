// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
 *       "url": "https://crm.example.com/hooks/voice-agents",
 *       "description": "CRM: log every call and its outcome",
 *       "eventTypes": [
 *         "call.ended",
 *         "call.analyzed"
 *       ],
 *       "status": "enabled",
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "updatedAt": "2025-06-02T15:20:45.000Z"
 *     }
 */
export type WebhookEndpoint = {
    _id: string;
    url: string;
    description: string;
    eventTypes: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
    /** @enum {string} */
    status: "enabled" | "disabled";
    disabledReason?: string;
    /** Format: date-time */
    previousSecretExpiresAt?: string;
    /** Format: date-time */
    failingSince?: string;
    workspaceId: string;
    /** Format: date-time */
    createdAt: string;
    /** Format: date-time */
    updatedAt: string;
};
