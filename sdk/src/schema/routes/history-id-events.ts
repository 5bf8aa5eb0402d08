// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/history/{id}/events
import type { components } from '../components.js';

export interface paths {
    "/api/history/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The call's event timeline: vendor connects and fallbacks, turns with their latencies, interruptions, tool calls, transfers, errors and the end, in time order (at most 500; docs/calls.md, "Event timeline") */
        get: operations["getHistoryEvents"];
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
    getHistoryEvents: {
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
            /** @description The call's event timeline: vendor connects and fallbacks, turns with their latencies, interruptions, tool calls, transfers, errors and the end, in time order (at most 500; docs/calls.md, "Event timeline") */
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
                     *       "data": [
                     *         {
                     *           "atMs": 180,
                     *           "type": "vendor_connected",
                     *           "stage": "tts",
                     *           "vendor": "elevenlabs"
                     *         },
                     *         {
                     *           "atMs": 210,
                     *           "type": "vendor_connected",
                     *           "stage": "stt",
                     *           "vendor": "deepgram"
                     *         },
                     *         {
                     *           "atMs": 6420,
                     *           "type": "turn",
                     *           "sttMs": 310.2,
                     *           "llmFirstTokenMs": 402.5,
                     *           "llmFirstPhraseMs": 88.1,
                     *           "ttsFirstByteMs": 121.7,
                     *           "overheadMs": 9.4,
                     *           "callerWait": {
                     *             "totalMs": 932,
                     *             "endOfTurnMs": 310,
                     *             "llmFirstTokenMs": 403,
                     *             "llmFirstPhraseMs": 88,
                     *             "ttsFirstByteMs": 122,
                     *             "otherMs": 9
                     *           }
                     *         },
                     *         {
                     *           "atMs": 9050,
                     *           "type": "tool_call",
                     *           "name": "lookup_appointment",
                     *           "status": "ok",
                     *           "durationMs": 640
                     *         },
                     *         {
                     *           "atMs": 14100,
                     *           "type": "interruption"
                     *         },
                     *         {
                     *           "atMs": 95000,
                     *           "type": "ended",
                     *           "reason": "customer_hangup"
                     *         }
                     *       ],
                     *       "truncated": false,
                     *       "limit": 500
                     *     }
                     */
                    "application/json": components["schemas"]["CallEvents"];
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
