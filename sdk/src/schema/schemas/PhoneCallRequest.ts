// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
 *       "phoneNumber": "+14155552671",
 *       "phoneNumberId": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
 *       "contactName": "Ada Lovelace",
 *       "variables": {
 *         "first_name": "Ada",
 *         "appointment": "3 June at 10:30"
 *       }
 *     }
 */
export type PhoneCallRequest = {
    assistantId: string;
    phoneNumber: string;
    phoneNumberId: string;
    contactName?: string;
    /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
    workspaceId?: string;
    /** @description true: the person agreed to this call, so it is placed even if the number is on the workspace's do-not-call list (otherwise 409 do_not_call) */
    consentedCall?: boolean;
    /** @description Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md) */
    variables?: {
        [key: string]: string | number | boolean;
    };
    /** @description Your own object for this call (at most 50 keys, 16 KB of JSON): stored on the call, returned on its history record and in every webhook about it, filterable with metadata.key=value (docs/calls.md) */
    metadata?: {
        [key: string]: unknown;
    };
    /** @description Agent fields for this call only (any field PATCH /api/agents/{id} takes except llm_base_url and llm_api_key): a different first message, voice, model, maximum duration (docs/calls.md) */
    agent_overrides?: {
        name?: string;
        /** @enum {string} */
        llm_provider?: "openai" | "anthropic" | "google" | "custom";
        llm_model?: string;
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
    };
    /** @description a published version of the agent to run instead of its latest, or draft to try the unpublished draft (docs/agent-versions.md) */
    agent_version?: number | "draft";
};
