// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
 *       "agentType": "voice",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "fullName": "Ada Lovelace",
 *       "mobileNumber": "+14155552671",
 *       "callDuration": 95,
 *       "callEndReason": "customer_hangup",
 *       "callSummary": "Confirmed the appointment for 3 June at 10:30.",
 *       "callCost": 1.5833,
 *       "workspace_id": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "analysis": {
 *         "status": "completed",
 *         "success": {
 *           "pass": true,
 *           "reason": "The patient confirmed the appointment."
 *         },
 *         "data": {
 *           "appointment_confirmed": true,
 *           "reschedule_requested": false
 *         },
 *         "analyzedAt": "2025-06-02T14:04:49.000Z"
 *       },
 *       "callTranscript": "agent: Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?\nuser: Yes, I will be there at 10:30.\nagent: Perfect, see you then. Goodbye!",
 *       "callRecordingUrl": "s3://voice-agents-recordings/recordings/ws_01JWRF848R3JVSZ7EBQE8EMWFG/call_01JWRFH97RNSQ4B7JD31A2QE39.wav",
 *       "turnLatencies": [
 *         {
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
 *         }
 *       ],
 *       "latencySummary": {
 *         "turns": 1,
 *         "measuredTurns": 1,
 *         "callerWaitP50Ms": 932,
 *         "callerWaitP90Ms": 932,
 *         "callerWaitMaxMs": 932
 *       }
 *     }
 */
export type HistoryRecord<S extends Record<"CallerWait" | "LatencySummary" | "CallError", unknown>> = {
    _id: string;
    /** @enum {string} */
    agentType: "voice" | "chat" | "video";
    agentId?: string;
    fullName: string;
    mobileNumber: string;
    callDuration: number;
    /** @enum {string} */
    callEndReason: "customer_hangup" | "agent_hangup" | "transferred" | "max_duration" | "silence_timeout" | "voicemail" | "busy" | "no_answer" | "failed" | "canceled" | "link_expired" | "not_joined" | "do_not_call" | "tts_voice_not_found" | "tts_auth_failed" | "tts_unavailable" | "stt_auth_failed" | "stt_unavailable" | "llm_auth_failed" | "llm_rate_limited" | "llm_unavailable" | "telephony_failed" | "ended_by_api" | "error";
    callSummary: string;
    callCost: number;
    workspace_id: string;
    /** Format: date-time */
    createdAt: string;
    analysis?: {
        /** @enum {string} */
        status: "completed" | "failed" | "skipped";
        success?: {
            pass: boolean;
            score?: number;
            reason: string;
        };
        data?: {
            [key: string]: unknown;
        };
        error?: string;
        /** Format: date-time */
        analyzedAt: string;
    };
    metadata?: {
        [key: string]: unknown;
    };
    callTranscript: string;
    callRecordingUrl?: string;
    callCostBreakdown?: {
        platform: number;
        stt: number;
        llm: number;
        tts: number;
        realtime?: number;
        workspaceKeys: ("stt" | "llm" | "tts")[];
    };
    realtimeUsage?: {
        model: string;
        inputAudioTokens: number;
        inputTextTokens: number;
        cachedTokens: number;
        cachedAudioTokens?: number;
        outputAudioTokens: number;
        outputTextTokens: number;
    };
    realtimeCost?: {
        model: string;
        vendorUsd: number;
        vendor: number;
        platform: number;
        total: number;
        onWorkspaceKey: boolean;
    };
    /** @enum {string} */
    callStatus?: "completed" | "busy" | "no-answer" | "failed" | "canceled";
    /**
     * @default unknown
     * @enum {string}
     */
    answeredBy: "human" | "machine_start" | "machine_end_beep" | "machine_end_silence" | "machine_end_other" | "fax" | "unknown";
    transfer?: {
        destination: string;
        /** @enum {string} */
        mode: "cold" | "warm";
        /** @enum {string} */
        outcome: "transferred" | "accepted" | "declined" | "no-answer" | "busy" | "failed";
    };
    turnLatencies?: {
        sttMs: number | null;
        llmFirstTokenMs: number | null;
        llmFirstPhraseMs: number | null;
        ttsFirstByteMs: number | null;
        overheadMs: number | null;
        callerWait?: S["CallerWait"] | null;
    }[];
    latencySummary?: S["LatencySummary"];
    variables?: {
        [key: string]: string | number | boolean;
    };
    agentOverrides?: string[];
    agentVersion?: number;
    callError?: S["CallError"];
    knowledge?: {
        /** @description the agent turn (0-based, counting agent turns) the chunks were given to */
        turn: number;
        /** @enum {string} */
        mode: "auto" | "tool";
        query: string;
        chunks: {
            chunkId: string;
            documentId: string;
            documentName: string;
            section?: string;
            page?: number;
            score: number;
        }[];
    }[];
    segments?: {
        agentId: string;
        agentName: string;
        agentVersion?: number;
        startSecond: number;
        endSecond: number;
        handoff?: {
            fromAgentId: string;
            reason: string;
            /** @enum {string} */
            context: "full" | "summary" | "none";
            variables: {
                [key: string]: string | number | boolean;
            };
            summary?: string;
            switchMs?: number;
        };
    }[];
};
