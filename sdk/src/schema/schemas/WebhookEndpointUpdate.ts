// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "eventTypes": [
 *         "call.ended",
 *         "call.analyzed",
 *         "call.transfer"
 *       ]
 *     }
 */
export type WebhookEndpointUpdate = {
    url?: string;
    description?: string;
    eventTypes?: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
    enabled?: boolean;
    workspaceId?: string;
};
