// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "phoneNumber": "+14155550142",
 *       "telephonyAccountSid": "AC3f9c2a71d4e85b06a7c1e9d2b4f60a58",
 *       "telephonyAuthToken": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
 *     }
 */
export type PhoneNumberImport = {
    phoneNumber: string;
    telephonyAccountSid: string;
    telephonyAuthToken: string;
    /** @description Asked before each inbound call is answered: it may pick the agent, give variables, agent_overrides and metadata, or reject the call (docs/telephony.md) */
    inbound_webhook_url?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
