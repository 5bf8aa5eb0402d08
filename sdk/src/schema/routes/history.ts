// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/history
import type { components } from '../components.js';

export interface paths {
    "/api/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List call history, newest first, with filters; metadata.<key>=<value> (up to 5) keeps the calls whose metadata has that value (docs/calls.md) */
        get: operations["listHistory"];
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
    listHistory: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                agentType?: "voice" | "chat" | "video";
                /** @description An ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z). */
                startDate?: string;
                /** @description An ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z). */
                endDate?: string;
                search?: string;
                success?: "true" | "false";
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List call history, newest first, with filters; metadata.<key>=<value> (up to 5) keeps the calls whose metadata has that value (docs/calls.md) */
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
                     *       "data": [
                     *         {
                     *           "_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
                     *           "agentType": "voice",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "fullName": "Ada Lovelace",
                     *           "mobileNumber": "+14155552671",
                     *           "callDuration": 95,
                     *           "callEndReason": "customer_hangup",
                     *           "callSummary": "Confirmed the appointment for 3 June at 10:30.",
                     *           "callCost": 1.5833,
                     *           "workspace_id": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "analysis": {
                     *             "status": "completed",
                     *             "success": {
                     *               "pass": true,
                     *               "reason": "The patient confirmed the appointment."
                     *             },
                     *             "data": {
                     *               "appointment_confirmed": true,
                     *               "reschedule_requested": false
                     *             },
                     *             "analyzedAt": "2025-06-02T14:04:49.000Z"
                     *           }
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["HistoryListItem"][];
                        total: number;
                        page: number;
                        limit: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
