// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "noiseDbfs": -55,
 *       "backchannels": true,
 *       "talkOverGreeting": true,
 *       "pauseMidSentence": {
 *         "line": 2,
 *         "ms": 1200
 *       }
 *     }
 */
export type AgentTestVoiceConditions = {
    /** @description background noise under everything the caller sends, in dBFS RMS (-60 a quiet office, -45 a street) */
    noiseDbfs?: number;
    /** @description the caller says "uh-huh" about a second into each agent reply that lasts that long */
    backchannels?: boolean;
    /** @description the caller coughs once, 600 ms into the agent's first reply */
    cough?: boolean;
    /** @description the first line starts 300 ms into the agent's greeting instead of after it */
    talkOverGreeting?: boolean;
    pauseMidSentence?: {
        /** @description which script line (1-based) is said in two halves */
        line: number;
        /** @description the silence between the halves */
        ms: number;
    };
    /** @description after the last line, the caller hangs up 500 ms into the agent's answer */
    hangUpMidReply?: boolean;
};
