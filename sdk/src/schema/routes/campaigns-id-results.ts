// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/campaigns/{id}/results
import type { components } from '../components.js';

export interface paths {
    "/api/campaigns/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per-contact results of a campaign with their call ids */
        get: operations["listCampaignResults"];
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
    listCampaignResults: {
        parameters: {
            query?: {
                workspaceId?: string;
                page?: number;
                limit?: number;
                state?: "pending" | "dialing" | "done" | "skipped";
            };
            header?: never;
            path: {
                /** @example cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Per-contact results of a campaign with their call ids */
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
                     *           "contactId": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
                     *           "contactName": "Ada Lovelace",
                     *           "phoneNumber": "+14155552671",
                     *           "state": "done",
                     *           "attempts": 2,
                     *           "lastOutcome": "answered",
                     *           "callIds": [
                     *             "call_01JWRFYC3R5N8QW2HT7XK4BD9E",
                     *             "call_01JWRFH97RNSQ4B7JD31A2QE39"
                     *           ]
                     *         }
                     *       ],
                     *       "total": 1,
                     *       "page": 1,
                     *       "limit": 10
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["CampaignResult"][];
                        total: number;
                        page: number;
                        limit: number;
                    };
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
