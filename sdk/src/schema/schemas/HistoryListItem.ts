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
 *       }
 *     }
 */
export type HistoryListItem = {
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
};
