// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/calls/{id}/listen
import type { components } from '../components.js';

export interface paths {
    "/api/calls/{id}/listen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed WebSocket URL, good for 5 minutes and this call only, streaming both sides' audio (PCM16, one channel each) and the call's events (docs/live-calls.md) */
        post: operations["listenToCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listenToCall: {
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
            /** @description A signed WebSocket URL, good for 5 minutes and this call only, streaming both sides' audio (PCM16, one channel each) and the call's events (docs/live-calls.md) */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "wss://stream.example.com/live/listen?token=vlt1.eyJ3b3Jrc3BhY2VJZCI6IndzXzAxIn0.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2025-06-02T14:09:19.000Z",
                     *       "format": {
                     *         "encoding": "pcm_s16le",
                     *         "sampleRate": 8000,
                     *         "channels": [
                     *           "caller",
                     *           "agent"
                     *         ],
                     *         "headerBytes": 8
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ListenResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
