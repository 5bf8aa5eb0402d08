// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /meeting/{callId}
import type { components } from '../components.js';

export interface paths {
    "/meeting/{callId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open a meeting link: the Join page; looks at the single-use token without using it (410 once used or expired). Without a token: the room page a reload lands on */
        get: operations["openMeeting"];
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
    openMeeting: {
        parameters: {
            query?: {
                /** @example q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc */
                token?: string;
            };
            header?: never;
            path: {
                /** @example call_01JWRFK3TRZXKY0WVNX2WE4XSF */
                callId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open a meeting link: the Join page; looks at the single-use token without using it (410 once used or expired). Without a token: the room page a reload lands on */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description No such meeting link (an HTML page). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head><body><main><h1>Link not found</h1><p>This meeting link is not valid.</p></main></body></html> */
                    "text/html": string;
                };
            };
            /** @description The link was already opened or has expired (an HTML page). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link already used</title></head><body><main><h1>Link already used</h1><p>This meeting link has already been opened. Ask for a new link.</p></main></body></html> */
                    "text/html": string;
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
