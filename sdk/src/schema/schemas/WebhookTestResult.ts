// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
 *       "deliveryId": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M"
 *     }
 */
export type WebhookTestResult = {
    eventId: string;
    deliveryId: string;
};
