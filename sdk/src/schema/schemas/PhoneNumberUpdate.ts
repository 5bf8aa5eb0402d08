// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "inbound_webhook_url": "https://crm.example.com/voice/inbound"
 *     }
 */
export type PhoneNumberUpdate = {
    agentId?: string | null;
    inbound_webhook_url?: string | null;
    agent_version?: number | null;
    workspaceId?: string;
};
