// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "creditsLowThreshold": 20
 *     }
 */
export type WebhookSettingsUpdate = {
    creditsLowThreshold: number | null;
    workspaceId?: string;
};
