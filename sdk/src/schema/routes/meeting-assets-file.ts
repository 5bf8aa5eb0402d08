// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /meeting/assets/{file}
import type { components } from '../components.js';

export interface paths {
    "/meeting/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Meeting page assets (its script, audio worklets and stylesheet) */
        get: operations["meetingAsset"];
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
    meetingAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example meeting.js */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Meeting page assets (its script, audio worklets and stylesheet) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
}
