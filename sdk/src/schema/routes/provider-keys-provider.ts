// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/provider-keys/{provider}
import type { components } from '../components.js';

export interface paths {
    "/api/provider-keys/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set (or replace) the workspace's own key at a vendor; its calls then use it and are not charged that vendor's share */
        put: operations["setProviderKey"];
        post?: never;
        /** Delete the workspace's key at a vendor; its calls go back to the platform's key */
        delete: operations["deleteProviderKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface operations {
    setProviderKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example deepgram */
                provider: "openai" | "anthropic" | "google" | "deepgram" | "assemblyai" | "speechmatics" | "elevenlabs" | "cartesia";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "apiKey": "3f1b9c0d2e7a48f5b6c1d09e8a7f2b4c5d6e9a0f"
                 *     }
                 */
                "application/json": components["schemas"]["ProviderKeySet"];
            };
        };
        responses: {
            /** @description Set (or replace) the workspace's own key at a vendor; its calls then use it and are not charged that vendor's share */
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
                     *       "last4": "9a0f",
                     *       "createdAt": "2025-06-02T14:03:11.000Z",
                     *       "updatedAt": "2025-06-02T14:03:11.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ProviderKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteProviderKey: {
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
            /** @description Done; no body. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    [name: string]: unknown;
                };
                content?: never;
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
