// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/optimus/meeting-link
import type { components } from '../components.js';

export interface paths {
    "/api/optimus/meeting-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a single-use video meeting link (credit check) */
        post: operations["createMeetingLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    createMeetingLink: {
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
                 *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
                 *       "contactName": "Ada Lovelace",
                 *       "phoneNumber": "+14155552671",
                 *       "variables": {
                 *         "first_name": "Ada"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["MeetingLinkRequest"];
            };
        };
        responses: {
            /** @description Create a single-use video meeting link (credit check) */
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
                     *       "call_id": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
                     *       "room_url": "https://api.example.com/meeting/call_01JWRFK3TRZXKY0WVNX2WE4XSF?token=q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc"
                     *     }
                     */
                    "application/json": components["schemas"]["MeetingLinkResult"];
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
