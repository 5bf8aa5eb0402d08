// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "callId": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
 *       "agentName": "Ava",
 *       "streamUrl": "wss://stream.example.com/web-stream",
 *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
 *       "expiresAt": "2026-11-23T15:20:00.000Z"
 *     }
 */
export type MeetingJoined = {
    callId: string;
    agentName: string;
    streamUrl: string;
    credential: string;
    /** Format: date-time */
    expiresAt: string;
    standIns?: {
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
