// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "replayed": 1,
 *       "deliveryIds": [
 *         "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M"
 *       ],
 *       "truncated": false
 *     }
 */
export type WebhookReplayResult = {
    replayed: number;
    deliveryIds: string[];
    truncated: boolean;
    /** Format: date-time */
    nextSince?: string;
};
