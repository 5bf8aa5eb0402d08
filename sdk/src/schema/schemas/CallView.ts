// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
 *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "type": "voice",
 *       "direction": "outbound",
 *       "state": "in-progress",
 *       "from": "+14155550123",
 *       "to": "+14155552671",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "answeredAt": "2025-06-02T14:03:19.000Z",
 *       "endedAt": null,
 *       "endReason": null,
 *       "historyId": null,
 *       "agentState": "listening",
 *       "transcript": [
 *         {
 *           "role": "agent",
 *           "text": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?"
 *         },
 *         {
 *           "role": "user",
 *           "text": "Yes, I will be there at 10:30."
 *         }
 *       ],
 *       "agent": {
 *         "id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *         "name": "Ava"
 *       }
 *     }
 */
export type CallView = {
    id: string;
    agentId: string;
    /** @enum {string} */
    type: "voice" | "chat" | "video";
    /** @enum {string} */
    direction: "outbound" | "inbound";
    /** @enum {string} */
    state: "initiated" | "dialing" | "ringing" | "in-progress" | "completed" | "busy" | "no-answer" | "failed" | "canceled";
    from: string | null;
    to: string;
    /** Format: date-time */
    createdAt: string;
    answeredAt: string | null;
    endedAt: string | null;
    endReason: ("customer_hangup" | "agent_hangup" | "transferred" | "max_duration" | "silence_timeout" | "voicemail" | "busy" | "no_answer" | "failed" | "canceled" | "link_expired" | "not_joined" | "do_not_call" | "tts_voice_not_found" | "tts_auth_failed" | "tts_unavailable" | "stt_auth_failed" | "stt_unavailable" | "llm_auth_failed" | "llm_rate_limited" | "llm_unavailable" | "telephony_failed" | "ended_by_api" | "error") | null;
    historyId: string | null;
    agentState: string | null;
    transcript: {
        /** @enum {string} */
        role: "user" | "agent";
        text: string;
    }[] | null;
    agent: {
        id: string;
        name: string;
    } | null;
};
