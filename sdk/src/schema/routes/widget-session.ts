// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /widget/session
import type { components } from '../components.js';

export interface paths {
    "/widget/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a widget voice call: widget key, agent and Origin checked; the answer is the web session for /web-stream (docs/widget.md). The body is JSON sent as text/plain so the browser needs no preflight */
        post: operations["startWidgetSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    startWidgetSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/plain": {
                    apiKey: string;
                    agentId: string;
                };
            };
        };
        responses: {
            /** @description Start a widget voice call: widget key, agent and Origin checked; the answer is the web session for /web-stream (docs/widget.md). The body is JSON sent as text/plain so the browser needs no preflight */
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
                     *       "callId": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "agentName": "Ava",
                     *       "streamUrl": "wss://stream.example.com/web-stream",
                     *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2026-11-23T15:20:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MeetingJoined"];
                };
            };
            400: components["responses"]["BadRequest"];
            402: components["responses"]["PaymentRequired"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
