// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "url": "https://crm.example.com/hooks/voice-agents",
 *       "description": "CRM: log every call and its outcome",
 *       "eventTypes": [
 *         "call.ended",
 *         "call.analyzed"
 *       ]
 *     }
 */
export type WebhookEndpointCreate = {
    url: string;
    /** @description Default: `""`. */
    description?: string;
    eventTypes?: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
