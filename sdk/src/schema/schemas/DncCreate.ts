// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "phoneNumber": "+14155550188",
 *       "reason": "Asked by email not to be called"
 *     }
 */
export type DncCreate = {
    phoneNumber: string;
    reason?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
