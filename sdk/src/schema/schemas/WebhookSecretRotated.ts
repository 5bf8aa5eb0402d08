// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "secret": "whsec_3q2+7wAAAAB0ZXN0LXNlY3JldC1yb3RhdGVkLWtleS0wMQ==",
 *       "previousSecretExpiresAt": "2025-06-03T15:20:45.000Z"
 *     }
 */
export type WebhookSecretRotated = {
    secret: string;
    /** Format: date-time */
    previousSecretExpiresAt: string;
};
