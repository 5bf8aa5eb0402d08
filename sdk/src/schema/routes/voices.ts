// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/voices
import type { components } from '../components.js';

export interface paths {
    "/api/voices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The voices an agent may name at a speech vendor: the vendor's own list for the workspace's key (else the platform's), cached ten minutes; 503 when it cannot be read (docs/api.md, "Voices and models") */
        get: operations["listVoices"];
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
    listVoices: {
        parameters: {
            query: {
                workspaceId?: string;
                /** @example elevenlabs */
                provider: "elevenlabs" | "deepgram" | "cartesia";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The voices an agent may name at a speech vendor: the vendor's own list for the workspace's key (else the platform's), cached ten minutes; 503 when it cannot be read (docs/api.md, "Voices and models") */
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
                     *       "provider": "elevenlabs",
                     *       "data": [
                     *         {
                     *           "id": "21m00Tcm4TlvDq8ikWAM",
                     *           "name": "Rachel",
                     *           "language": "en",
                     *           "gender": "female",
                     *           "previewUrl": "https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3"
                     *         },
                     *         {
                     *           "id": "pNInz6obpgDQGcFmaJgB",
                     *           "name": "Adam",
                     *           "language": "en",
                     *           "gender": "male",
                     *           "previewUrl": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Voices"];
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
