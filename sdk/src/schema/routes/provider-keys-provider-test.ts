// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/provider-keys/{provider}/test
import type { components } from '../components.js';

export interface paths {
    "/api/provider-keys/{provider}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test the stored key with the vendor's cheapest authenticated request; the verdict is kept on the key */
        post: operations["testProviderKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    testProviderKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example deepgram */
                provider: "openai" | "anthropic" | "google" | "deepgram" | "assemblyai" | "speechmatics" | "elevenlabs" | "cartesia";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Test the stored key with the vendor's cheapest authenticated request; the verdict is kept on the key */
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
                     *       "provider": "deepgram",
                     *       "result": "valid",
                     *       "vendorStatus": 200,
                     *       "message": "deepgram accepted the key.",
                     *       "testedAt": "2025-06-02T15:20:45.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ProviderKeyTested"];
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
