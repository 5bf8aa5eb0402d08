// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/history/{id}/recording-url
import type { components } from '../components.js';

export interface paths {
    "/api/history/{id}/recording-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A presigned download URL for the call recording, valid 15 minutes */
        get: operations["getRecordingUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    getRecordingUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example call_01JWRFH97RNSQ4B7JD31A2QE39 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A presigned download URL for the call recording, valid 15 minutes */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://voice-agents-recordings.s3.us-east-1.amazonaws.com/recordings/ws_01JWRF848R3JVSZ7EBQE8EMWFG/call_01JWRFH97RNSQ4B7JD31A2QE39.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=3b1f0c9e",
                     *       "expiresAt": "2025-06-02T14:18:11.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RecordingUrl"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
