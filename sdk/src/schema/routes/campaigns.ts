// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/campaigns
import type { components } from '../components.js';

export interface paths {
    "/api/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List campaigns, newest first */
        get: operations["listCampaigns"];
        put?: never;
        /** Create a campaign (draft): an agent calling a list of contacts within their hours, with retries */
        post: operations["createCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    listCampaigns: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List campaigns, newest first */
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
                     *           "_id": "cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C",
                     *           "name": "June appointment reminders",
                     *           "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                     *           "status": "running",
                     *           "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *           "createdAt": "2025-06-02T14:03:11.000Z"
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CampaignListItem"][];
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
    createCampaign: {
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
                 *         }
                 *       },
                 *       "variables": {
                 *         "clinic": "Bayview Dental"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CampaignCreate"];
            };
        };
        responses: {
            /** @description Create a campaign (draft): an agent calling a list of contacts within their hours, with retries */
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
                     *       "status": "draft",
                     *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T15:20:45.000Z",
                     *       "progress": {
                     *         "status": "draft",
                     *         "contacts": {
                     *           "total": 1,
                     *           "pending": 1,
                     *           "inFlight": 0,
                     *           "finished": 0,
                     *           "skipped": 0
                     *         },
                     *         "outcomes": {
                     *           "answered": 0,
                     *           "voicemail": 0,
                     *           "busy": 0,
                     *           "no_answer": 0,
                     *           "failed": 0
                     *         },
                     *         "attempts": {
                     *           "answered": 0,
                     *           "voicemail": 0,
                     *           "busy": 0,
                     *           "no_answer": 0,
                     *           "failed": 0
                     *         },
                     *         "nextAttempts": [
                     *           {
                     *             "contactId": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
                     *             "at": "2025-06-02T14:03:11.000Z"
                     *           }
                     *         ]
                     *       },
                     *       "variables": {
                     *         "clinic": "Bayview Dental"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CampaignDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
