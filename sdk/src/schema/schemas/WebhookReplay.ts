// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "since": "2025-06-02T00:00:00Z",
 *       "until": "2025-06-02T23:59:59Z"
 *     }
 */
export type WebhookReplay = {
    eventId?: string;
    since?: string;
    until?: string;
    workspaceId?: string;
};
