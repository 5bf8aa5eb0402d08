// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "name": "Appointment reminder",
 *       "llm_provider": "openai",
 *       "llm_model": "gpt-4o-mini",
 *       "tts_provider": "elevenlabs",
 *       "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
 *       "stt_provider": "deepgram",
 *       "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
 *       "first_message": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
 *       "recording_enabled": true,
 *       "language": "en-US",
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
 *       ]
 *     }
 */
export type AgentCreate = {
    name: string;
    /** @enum {string} */
    llm_provider: "openai" | "anthropic" | "google" | "custom";
    llm_model: string;
    llm_base_url?: string;
    llm_api_key?: string;
    /** @enum {string} */
    tts_provider: "elevenlabs" | "deepgram" | "cartesia";
    tts_voice_id?: string;
    /** @enum {string} */
    stt_provider: "deepgram" | "assemblyai" | "speechmatics" | "openai";
    /** @description BCP-47 tag (en-US, es-ES, de-DE, hi-IN) or `multi`: the caller's language is detected each turn and the agent answers in it. Default: `"en-US"`. */
    language?: string;
    /** @description Default: `""`. */
    system_prompt?: string;
    /** @description Default: `""`. */
    first_message?: string;
    /**
     * @description Default: `"agent_speaks_first"`.
     * @enum {string}
     */
    first_message_mode?: "agent_speaks_first" | "wait_for_caller" | "model_generated";
    /** @description Default: `false`. */
    first_message_interruptible?: boolean;
    /** @description Default: `false`. */
    recording_enabled?: boolean;
    /** @description Default: `false`. */
    ambience_enabled?: boolean;
    ambience?: {
        sound: string;
        /** @description Default: `0.3`. */
        volume?: number;
    };
    pronunciations?: ({
        word: string;
        say_as: string;
    } | {
        word: string;
        phoneme: string;
        /**
         * @description Default: `"ipa"`.
         * @enum {string}
         */
        alphabet?: "ipa" | "cmu-arpabet";
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
     * @description Default: `"off"`.
     * @enum {string}
     */
    voicemail_detection?: "off" | "detect" | "detect_message_end";
    /**
     * @description Default: `"hang_up"`.
     * @enum {string}
     */
    voicemail_action?: "hang_up" | "leave_message";
    /** @description Default: `""`. */
    voicemail_message?: string;
    max_duration_seconds?: number;
    /** @description Default: `{}`. */
    dtmf_shortcuts?: {
        [key: string]: {
            /** @constant */
            action: "transfer";
            destination: string;
            /**
             * @description Default: `"cold"`.
             * @enum {string}
             */
            mode?: "cold" | "warm";
        } | {
            /** @constant */
            action: "end_call";
        };
    };
    /**
     * @description Default: `"cold"`.
     * @enum {string}
     */
    transfer_mode?: "cold" | "warm";
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
    tool_ids?: string[] | null;
    knowledge_base_ids?: string[];
    /** @enum {string} */
    knowledge_base_mode?: "auto" | "tool";
    handoffs?: {
        agent_id: string;
        description: string;
        /**
         * @description Default: `"full"`.
         * @enum {string}
         */
        context?: "full" | "summary" | "none";
        /** @description Default: `[]`. */
        variables?: {
            name: string;
            /**
             * @description Default: `"string"`.
             * @enum {string}
             */
            type?: "string" | "number" | "boolean";
            description: string;
            /** @description Default: `true`. */
            required?: boolean;
        }[];
    }[];
    realtime?: {
        /** @enum {string} */
        provider: "openai" | "google";
        model: string;
        voice: string;
    };
    analysis?: {
        summaryPrompt?: string;
        successEvaluation?: {
            rubric: string;
            /**
             * @description Default: `"pass_fail"`.
             * @enum {string}
             */
            type?: "pass_fail" | "score";
            /** @description Default: `7`. */
            passingScore?: number;
        };
        structuredData?: {
            schema: {
                [key: string]: unknown;
            };
            prompt?: string;
        };
    };
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
};
