// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/calls/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/calls/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One call, live or ended: its state, its history record's id once written and, while connected, the transcript so far, the agent's state and the agent */
        get: operations["getCall"];
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
    getCall: {
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
            /** @description One call, live or ended: its state, its history record's id once written and, while connected, the transcript so far, the agent's state and the agent */
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
                     *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "type": "voice",
                     *       "direction": "outbound",
                     *       "state": "in-progress",
                     *       "from": "+14155550123",
                     *       "to": "+14155552671",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "answeredAt": "2025-06-02T14:03:19.000Z",
                     *       "endedAt": null,
                     *       "endReason": null,
                     *       "historyId": null,
                     *       "agentState": "listening",
                     *       "transcript": [
                     *         {
                     *           "role": "agent",
                     *           "text": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?"
                     *         },
                     *         {
                     *           "role": "user",
                     *           "text": "Yes, I will be there at 10:30."
                     *         }
                     *       ],
                     *       "agent": {
                     *         "id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *         "name": "Ava"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CallView"];
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
