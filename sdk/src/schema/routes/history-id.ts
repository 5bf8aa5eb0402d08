// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/history/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/history/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one call record with transcript */
        get: operations["getHistory"];
        put?: never;
        post?: never;
        /** Delete a call record */
        delete: operations["deleteHistory"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    getHistory: {
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
            /** @description Get one call record with transcript */
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
                     *       "_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *       "agentType": "voice",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "fullName": "Ada Lovelace",
                     *       "mobileNumber": "+14155552671",
                     *       "callDuration": 95,
                     *       "callEndReason": "customer_hangup",
                     *       "callSummary": "Confirmed the appointment for 3 June at 10:30.",
                     *       "callCost": 1.5833,
                     *       "workspace_id": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "analysis": {
                     *         "status": "completed",
                     *         "success": {
                     *           "pass": true,
                     *           "reason": "The patient confirmed the appointment."
                     *         },
                     *         "data": {
                     *           "appointment_confirmed": true,
                     *           "reschedule_requested": false
                     *         },
                     *         "analyzedAt": "2025-06-02T14:04:49.000Z"
                     *       },
                     *       "callTranscript": "agent: Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?\nuser: Yes, I will be there at 10:30.\nagent: Perfect, see you then. Goodbye!",
                     *       "callRecordingUrl": "s3://voice-agents-recordings/recordings/ws_01JWRF848R3JVSZ7EBQE8EMWFG/call_01JWRFH97RNSQ4B7JD31A2QE39.wav",
                     *       "turnLatencies": [
                     *         {
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
                     *         }
                     *       ],
                     *       "latencySummary": {
                     *         "turns": 1,
                     *         "measuredTurns": 1,
                     *         "callerWaitP50Ms": 932,
                     *         "callerWaitP90Ms": 932,
                     *         "callerWaitMaxMs": 932
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["HistoryRecord"];
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
    deleteHistory: {
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
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
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
