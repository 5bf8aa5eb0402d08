// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/campaigns/{id}
import type { components } from '../components.js';

export interface paths {
    "/api/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a campaign and its progress (counts per outcome, calls in flight, next attempts) */
        get: operations["getCampaign"];
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
    getCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Get a campaign and its progress (counts per outcome, calls in flight, next attempts) */
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
                     *       "_id": "cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C",
                     *       "name": "June appointment reminders",
                     *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *       "phoneNumberIds": [
                     *         "pn_01JWRFFEMRDV3APXSJENM3G73Y"
                     *       ],
                     *       "contacts": {
                     *         "contactIds": [
                     *           "ct_01JWRFDM1R9CFJ88P7TD5FBWNC"
                     *         ]
                     *       },
                     *       "schedule": {
                     *         "startAt": "2025-06-02T13:00:00.000Z",
                     *         "endAt": "2025-06-09T01:00:00.000Z"
                     *       },
                     *       "callingWindow": {
                     *         "start": "09:00",
                     *         "end": "20:00",
                     *         "days": [
                     *           "mon",
                     *           "tue",
                     *           "wed",
                     *           "thu",
                     *           "fri"
                     *         ]
                     *       },
                     *       "concurrency": 2,
                     *       "retry": {
                     *         "no_answer": {
                     *           "retries": 2,
                     *           "delayMinutes": 60
                     *         },
                     *         "busy": {
                     *           "retries": 2,
                     *           "delayMinutes": 15
                     *         },
                     *         "voicemail": {
                     *           "retries": 1,
                     *           "delayMinutes": 240
                     *         },
                     *         "failed": {
                     *           "retries": 1,
                     *           "delayMinutes": 30
                     *         }
                     *       },
                     *       "status": "running",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z",
                     *       "progress": {
                     *         "status": "running",
                     *         "contacts": {
                     *           "total": 2,
                     *           "pending": 1,
                     *           "inFlight": 0,
                     *           "finished": 1,
                     *           "skipped": 0
                     *         },
                     *         "outcomes": {
                     *           "answered": 1,
                     *           "voicemail": 0,
                     *           "busy": 0,
                     *           "no_answer": 0,
                     *           "failed": 0
                     *         },
                     *         "attempts": {
                     *           "answered": 1,
                     *           "voicemail": 0,
                     *           "busy": 1,
                     *           "no_answer": 0,
                     *           "failed": 0
                     *         },
                     *         "nextAttempts": [
                     *           {
                     *             "contactId": "ct_01JWRFWH5R1K9TB3YD6QZ2MC8P",
                     *             "at": "2025-06-02T15:35:45.000Z"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CampaignDetail"];
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
