// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "phoneNumber": "+14155550123"
 *     }
 */
export type PhoneNumberBuy = {
    phoneNumber: string;
    /** @description Asked before each inbound call is answered: it may pick the agent, give variables, agent_overrides and metadata, or reject the call (docs/telephony.md) */
    inbound_webhook_url?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
