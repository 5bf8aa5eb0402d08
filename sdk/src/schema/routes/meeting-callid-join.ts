// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /meeting/{callId}/join
import type { components } from '../components.js';

export interface paths {
    "/meeting/{callId}/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join a meeting: redeems the single-use token sent in the body, form or JSON (410 once used or expired); with Accept: application/json the answer is the web session (docs/meeting.md) */
        post: operations["joinMeeting"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    joinMeeting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example call_01JWRFK3TRZXKY0WVNX2WE4XSF */
                callId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Join a meeting: redeems the single-use token sent in the body, form or JSON (410 once used or expired); with Accept: application/json the answer is the web session (docs/meeting.md) */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "callId": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
                     *       "agentName": "Ava",
                     *       "streamUrl": "wss://stream.example.com/web-stream",
                     *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
                     *       "expiresAt": "2026-11-23T15:20:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MeetingJoined"];
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No such meeting link: a page, or the JSON error body (not_found) to a client asking for JSON. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head><body><main><h1>Link not found</h1><p>This meeting link is not valid.</p></main></body></html> */
                    "text/html": string;
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "Meeting link was not found.",
                     *         "details": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link was already opened (link_used) or has expired (link_expired): a page, or the JSON error body to a client asking for JSON. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link already used</title></head><body><main><h1>Link already used</h1><p>This meeting link has already been opened. Ask for a new link.</p></main></body></html> */
                    "text/html": string;
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "link_used",
                     *         "message": "This meeting link has already been used. Ask for a new link.",
                     *         "details": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
