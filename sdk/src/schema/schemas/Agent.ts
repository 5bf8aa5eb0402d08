// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "name": "Appointment reminder",
 *       "llm_provider": "openai",
 *       "llm_model": "gpt-4o-mini",
 *       "tts_provider": "elevenlabs",
 *       "stt_provider": "deepgram",
 *       "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
 *       "first_message": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
 *       "recording_enabled": true,
 *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
 *       "createdAt": "2025-06-02T14:03:11.000Z",
 *       "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
 *       "language": "en-US",
 *       "first_message_mode": "agent_speaks_first",
 *       "first_message_interruptible": false,
 *       "ambience_enabled": false,
 *       "pronunciations": [
 *         {
 *           "word": "Invisalign",
 *           "say_as": "in vizz a line"
 *         },
 *         {
 *           "word": "Nguyen",
 *           "phoneme": "wɪn",
 *           "alphabet": "ipa"
 *         }
 *       ],
 *       "voicemail_detection": "detect_message_end",
 *       "voicemail_action": "leave_message",
 *       "voicemail_message": "Hi {{contactName}}, this is Bayview Dental about your appointment tomorrow. Please call us back. Thank you!",
 *       "max_duration_seconds": 600,
 *       "dtmf_shortcuts": {
 *         "0": {
 *           "action": "transfer",
 *           "destination": "+14155550142",
 *           "mode": "warm"
 *         }
 *       },
 *       "transfer_mode": "warm",
 *       "updatedAt": "2025-06-02T15:20:45.000Z",
 *       "published_version": 2,
 *       "has_unpublished_changes": false
 *     }
 */
export type Agent = {
    _id: string;
    name: string;
    /** @enum {string} */
    llm_provider: "openai" | "anthropic" | "google" | "custom";
    llm_model: string;
    /** @enum {string} */
    tts_provider: "elevenlabs" | "deepgram" | "cartesia";
    /** @enum {string} */
    stt_provider: "deepgram" | "assemblyai" | "speechmatics" | "openai";
    workspaceId: string;
    /** Format: date-time */
    createdAt: string;
    system_prompt: string;
    first_message: string;
    recording_enabled: boolean;
    analysis?: {
        summaryPrompt?: string;
        successEvaluation?: {
            rubric: string;
            /**
             * @default pass_fail
             * @enum {string}
             */
            type: "pass_fail" | "score";
            /** @default 7 */
            passingScore: number;
        };
        structuredData?: {
            schema: {
                [key: string]: unknown;
            };
            prompt?: string;
        };
    } | null;
    tool_ids?: string[] | null;
    knowledge_base_ids?: string[];
    /** @enum {string} */
    knowledge_base_mode?: "auto" | "tool";
    llm_base_url?: string | null;
    llm_api_key?: string | null;
    tts_voice_id: string;
    /** @default en-US */
    language: string;
    /**
     * @default agent_speaks_first
     * @enum {string}
     */
    first_message_mode: "agent_speaks_first" | "wait_for_caller" | "model_generated";
    /** @default false */
    first_message_interruptible: boolean;
    ambience_enabled: boolean;
    ambience?: {
        sound: string;
        /** @default 0.3 */
        volume: number;
    };
    pronunciations?: ({
        word: string;
        say_as: string;
    } | {
        word: string;
        phoneme: string;
        /**
         * @default ipa
         * @enum {string}
         */
        alphabet: "ipa" | "cmu-arpabet";
    })[];
    interruption?: {
        min_duration_ms?: number;
        min_words?: number;
        false_interruption_timeout_ms?: number;
        resume_false_interruption?: boolean;
        backchannels?: string[];
        stop_words?: string[];
    };
    silence?: {
        reprompt_after_ms?: number;
        max_reprompts?: number;
        reprompt_message?: string;
    };
    turn_taking?: {
        unfinished_wait_ms?: number;
        continuation_words?: string[];
        preemptive_generation?: boolean;
        first_token_budget_ms?: number;
    };
    /**
     * @default off
     * @enum {string}
     */
    voicemail_detection: "off" | "detect" | "detect_message_end";
    /**
     * @default hang_up
     * @enum {string}
     */
    voicemail_action: "hang_up" | "leave_message";
    /** @default  */
    voicemail_message: string;
    max_duration_seconds?: number;
    /** @default {} */
    dtmf_shortcuts: {
        [key: string]: {
            /** @constant */
            action: "transfer";
            destination: string;
            /**
             * @default cold
             * @enum {string}
             */
            mode: "cold" | "warm";
        } | {
            /** @constant */
            action: "end_call";
        };
    };
    /**
     * @default cold
     * @enum {string}
     */
    transfer_mode: "cold" | "warm";
    fallback?: {
        tts?: {
            /** @enum {string} */
            provider: "elevenlabs" | "deepgram" | "cartesia";
            voice_id?: string;
        }[];
        stt?: {
            /** @enum {string} */
            provider: "deepgram" | "assemblyai" | "speechmatics" | "openai";
        }[];
        llm?: {
            /** @enum {string} */
            provider: "openai" | "anthropic" | "google";
            model: string;
        }[];
    };
    handoffs?: {
        agent_id: string;
        description: string;
        /**
         * @default full
         * @enum {string}
         */
        context: "full" | "summary" | "none";
        /** @default [] */
        variables: {
            name: string;
            /**
             * @default string
             * @enum {string}
             */
            type: "string" | "number" | "boolean";
            description: string;
            /** @default true */
            required: boolean;
        }[];
    }[];
    realtime?: {
        /** @enum {string} */
        provider: "openai" | "google";
        model: string;
        voice: string;
    } | null;
    /** Format: date-time */
    updatedAt: string;
    /** @default null */
    published_version: number | null;
    /** @default false */
    has_unpublished_changes: boolean;
};
