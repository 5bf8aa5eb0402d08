// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "callId": "call_01JWRFH97RNSQ4B7JD31A2QE39",
 *       "data": [
 *         {
 *           "atMs": 180,
 *           "type": "vendor_connected",
 *           "stage": "tts",
 *           "vendor": "elevenlabs"
 *         },
 *         {
 *           "atMs": 210,
 *           "type": "vendor_connected",
 *           "stage": "stt",
 *           "vendor": "deepgram"
 *         },
 *         {
 *           "atMs": 6420,
 *           "type": "turn",
 *           "sttMs": 310.2,
 *           "llmFirstTokenMs": 402.5,
 *           "llmFirstPhraseMs": 88.1,
 *           "ttsFirstByteMs": 121.7,
 *           "overheadMs": 9.4,
 *           "callerWait": {
 *             "totalMs": 932,
 *             "endOfTurnMs": 310,
 *             "llmFirstTokenMs": 403,
 *             "llmFirstPhraseMs": 88,
 *             "ttsFirstByteMs": 122,
 *             "otherMs": 9
 *           }
 *         },
 *         {
 *           "atMs": 9050,
 *           "type": "tool_call",
 *           "name": "lookup_appointment",
 *           "status": "ok",
 *           "durationMs": 640
 *         },
 *         {
 *           "atMs": 14100,
 *           "type": "interruption"
 *         },
 *         {
 *           "atMs": 95000,
 *           "type": "ended",
 *           "reason": "customer_hangup"
 *         }
 *       ],
 *       "truncated": false,
 *       "limit": 500
 *     }
 */
export type CallEvents<S extends Record<"CallEvent", unknown>> = {
    callId: string;
    data: S["CallEvent"][];
    truncated: boolean;
    limit: number;
};
