// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /widget/chat
import type { components } from '../components.js';

export interface paths {
    "/widget/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a widget text chat: widget key, agent and Origin checked as for a call; the answer is the chat session for /web-chat (docs/chat.md). JSON sent as text/plain (no preflight) */
        post: operations["startWidgetChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    startWidgetChat: {
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
            /** @description Start a widget text chat: widget key, agent and Origin checked as for a call; the answer is the chat session for /web-chat (docs/chat.md). JSON sent as text/plain (no preflight) */
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
                     *       "chatId": "call_01JWRFM8Q2D7XK4TNV9B3C6YHZ",
                     *       "agentName": "Ava",
                     *       "chatUrl": "wss://stream.example.com/web-chat",
                     *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2026-11-23T16:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ChatStarted"];
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
