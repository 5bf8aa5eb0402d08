// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "first_message": "Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.",
 *       "first_message_mode": "wait_for_caller",
 *       "ambience_enabled": true,
 *       "ambience": {
 *         "sound": "office",
 *         "volume": 0.25
 *       },
 *       "interruption": {
 *         "min_words": 3
 *       },
 *       "turn_taking": {
 *         "unfinished_wait_ms": 2500
 *       },
 *       "llm_provider": "custom",
 *       "llm_base_url": "https://llm.bayviewdental.example/v1",
 *       "llm_model": "bayview-receptionist-8b",
 *       "llm_api_key": "sk-bayview-2f9c41d7e8a0",
 *       "realtime": {
 *         "provider": "openai",
 *         "model": "gpt-realtime",
 *         "voice": "marin"
 *       },
 *       "handoffs": [
 *         {
 *           "agent_id": "agt_01JWRG5TRR3M8QK2XD6B9NZ4VH",
 *           "description": "the patient cannot come tomorrow and wants another day",
 *           "context": "summary",
 *           "variables": [
 *             {
 *               "name": "preferred_day",
 *               "type": "string",
 *               "description": "the day the patient would rather come",
 *               "required": false
 *             }
 *           ]
 *         }
 *       ]
 *     }
 */
export type AgentUpdate = {
    name?: string;
    /** @enum {string} */
    llm_provider?: "openai" | "anthropic" | "google" | "custom";
    llm_model?: string;
    llm_base_url?: string | null;
    llm_api_key?: string | null;
    /** @enum {string} */
    tts_provider?: "elevenlabs" | "deepgram" | "cartesia";
    tts_voice_id?: string;
    /** @enum {string} */
    stt_provider?: "deepgram" | "assemblyai" | "speechmatics" | "openai";
    /** @description BCP-47 tag (en-US, es-ES, de-DE, hi-IN) or `multi`: the caller's language is detected each turn and the agent answers in it. */
    language?: string;
    system_prompt?: string;
    first_message?: string;
    /** @enum {string} */
    first_message_mode?: "agent_speaks_first" | "wait_for_caller" | "model_generated";
    first_message_interruptible?: boolean;
    recording_enabled?: boolean;
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
    /** @enum {string} */
    voicemail_detection?: "off" | "detect" | "detect_message_end";
    /** @enum {string} */
    voicemail_action?: "hang_up" | "leave_message";
    voicemail_message?: string;
    max_duration_seconds?: number;
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
    /** @enum {string} */
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
    } | null;
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
    } | null;
    workspaceId?: string;
};
