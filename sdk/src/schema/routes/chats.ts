// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/chats
import type { components } from '../components.js';

export interface paths {
    "/api/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a text chat with an agent (credit check for one message); the answer is the chat session: open chatUrl and talk over the WebSocket (docs/chat.md) */
        post: operations["createChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    createChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "contactName": "Ada Lovelace",
                 *       "variables": {
                 *         "contactName": "Ada Lovelace",
                 *         "order_id": "A-1042"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ChatRequest"];
            };
        };
        responses: {
            /** @description Start a text chat with an agent (credit check for one message); the answer is the chat session: open chatUrl and talk over the WebSocket (docs/chat.md) */
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
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
