// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "url": "https://voice-agents-recordings.s3.us-east-1.amazonaws.com/recordings/ws_01JWRF848R3JVSZ7EBQE8EMWFG/call_01JWRFH97RNSQ4B7JD31A2QE39.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=3b1f0c9e",
 *       "expiresAt": "2025-06-02T14:18:11.000Z"
 *     }
 */
export type RecordingUrl = {
    url: string;
    /** Format: date-time */
    expiresAt: string;
};
