// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "contactId": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
 *       "contactName": "Ada Lovelace",
 *       "phoneNumber": "+14155552671",
 *       "state": "done",
 *       "attempts": 2,
 *       "lastOutcome": "answered",
 *       "callIds": [
 *         "call_01JWRFYC3R5N8QW2HT7XK4BD9E",
 *         "call_01JWRFH97RNSQ4B7JD31A2QE39"
 *       ]
 *     }
 */
export type CampaignResult = {
    contactId: string;
    contactName: string;
    phoneNumber: string;
    /** @enum {string} */
    state: "pending" | "dialing" | "done" | "skipped";
    attempts: number;
    /** @enum {string} */
    lastOutcome?: "answered" | "voicemail" | "busy" | "no_answer" | "failed";
    callIds: string[];
    /** Format: date-time */
    nextAttemptAt?: string;
    /** @enum {string} */
    skipReason?: "do_not_call" | "missing_variables" | "invalid_number" | "no_calling_hours";
    missingVariables?: string[];
};
