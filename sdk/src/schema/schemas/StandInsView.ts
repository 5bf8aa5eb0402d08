// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

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
export type StandInsView = {
    simulated: boolean;
    notice?: {
        parts: {
            /**
             * @description `stt` speech recognition, `llm` the language model, `tts` the voice, `telephony` phone calls.
             * @enum {string}
             */
            capability: "stt" | "llm" | "tts" | "telephony";
            /** @description The vendor the agent names (`deepgram`, `openai`, `twilio`, ...). */
            vendor: string;
            /** @description The environment variable whose real key switches this vendor to its real service. */
            keyVariable: string;
        }[];
        /** @description What is simulated and how to make it real, one paragraph to show as is. */
        message: string;
    };
};
