// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

// /api/stand-ins
import type { components } from '../components.js';

export interface paths {
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
