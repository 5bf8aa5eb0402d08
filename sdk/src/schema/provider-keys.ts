// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// The "Provider keys" operations.
import type { components } from './components.js';

export interface paths {
    "/api/provider-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspace's own vendor keys, masked (vendor, last four characters, dates, last test) */
        get: operations["listProviderKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
    "/api/stand-ins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The platform's simulated vendors (the stand-ins npm start runs), or one agent's with `agentId`: what each is and the key variable that makes it real. `simulated` is false on real vendors */
        get: operations["listStandIns"];
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
    listProviderKeys: {
        parameters: {
            query?: {
                workspaceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description List the workspace's own vendor keys, masked (vendor, last four characters, dates, last test) */
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
                     *           "provider": "deepgram",
                     *           "last4": "9a0f",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "updatedAt": "2025-06-02T15:20:45.000Z",
                     *           "lastTestedAt": "2025-06-02T15:20:45.000Z",
                     *           "lastTestResult": "valid"
                     *         },
                     *         {
                     *           "provider": "elevenlabs",
                     *           "last4": "c41d",
                     *           "createdAt": "2025-06-02T14:03:11.000Z",
                     *           "updatedAt": "2025-06-02T15:20:45.000Z",
                     *           "lastTestedAt": "2025-06-02T15:20:45.000Z",
                     *           "lastTestResult": "valid"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ProviderKey"][];
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
    listStandIns: {
        parameters: {
            query?: {
                workspaceId?: string;
                /** @description Only this agent's vendors (404 when it is not the workspace's). */
                agentId?: string;
                /** @description `web`: the vendors of a browser call (meeting, widget), so no telephony; `chat`: a text chat, the model only. Default (`phone`): every capability, telephony included. */
                channel?: "web" | "phone" | "chat";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The platform's simulated vendors (the stand-ins npm start runs), or one agent's with `agentId`: what each is and the key variable that makes it real. `simulated` is false on real vendors */
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
                     *       "simulated": true,
                     *       "notice": {
                     *         "parts": [
                     *           {
                     *             "capability": "llm",
                     *             "vendor": "openai",
                     *             "keyVariable": "OPENAI_API_KEY"
                     *           },
                     *           {
                     *             "capability": "tts",
                     *             "vendor": "elevenlabs",
                     *             "keyVariable": "ELEVENLABS_API_KEY"
                     *           }
                     *         ],
                     *         "message": "Simulated: the language model (OpenAI) and the voice (ElevenLabs) are local stand-ins. The model repeats back what it is told and the voice is a tone. To make them real, set OPENAI_API_KEY and ELEVENLABS_API_KEY where the platform runs (npm start: in its environment) and restart it."
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["StandInsView"];
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
