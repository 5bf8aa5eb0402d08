// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

export interface components {
    schemas: {
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
        Agent: {
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
        AgentCreate: {
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
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        AgentCreated: {
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
        };
        /**
         * @example {
         *       "from": 2,
         *       "to": "draft",
         *       "changes": [
         *         {
         *           "field": "first_message",
         *           "before": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
         *           "after": "Hello from Bayview Dental! I am calling to confirm your appointment tomorrow."
         *         }
         *       ]
         *     }
         */
        AgentDiff: {
            from: "draft" | number;
            to: "draft" | number;
            changes: {
                field: string;
                before?: unknown;
                after?: unknown;
            }[];
        };
        /**
         * @example {
         *       "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "name": "Appointment reminder",
         *       "llm_provider": "openai",
         *       "llm_model": "gpt-4o-mini",
         *       "tts_provider": "elevenlabs",
         *       "stt_provider": "deepgram",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        AgentListItem: {
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
        };
        /**
         * @example {
         *       "_id": "trun_01JWRG7N0R6P1QK4XB8D3MZ7TW",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "agentVersion": null,
         *       "suite": null,
         *       "status": "queued",
         *       "scenarios": [
         *         {
         *           "scenarioId": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
         *           "name": "Order status by number",
         *           "status": "pending",
         *           "checks": [],
         *           "cost": 0
         *         }
         *       ],
         *       "passed": 1,
         *       "failed": 0,
         *       "cost": 0,
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        AgentTestRun: {
            _id: string;
            workspaceId: string;
            agentId: string;
            agentVersion: number | null;
            suite: string | null;
            /** @enum {string} */
            status: "queued" | "running" | "passed" | "failed" | "error";
            scenarios: {
                scenarioId: string;
                name: string;
                /** @enum {string} */
                status: "pending" | "running" | "passed" | "failed" | "error";
                chatId?: string;
                callId?: string;
                recordingUrl?: string;
                transcript?: string;
                endReason?: string;
                toolCalls?: {
                    name: string;
                    arguments: {
                        [key: string]: unknown;
                    };
                }[];
                handoff?: boolean;
                checks: {
                    type: string;
                    label: string;
                    passed: boolean;
                    evidence: string;
                }[];
                latency?: {
                    firstReplyMs: number | null;
                    replyMsMedian: number | null;
                    replyMsMax: number | null;
                };
                cost: number;
                wallMs?: number;
                persona?: {
                    provider: string;
                    model: string;
                    lines: number;
                    inputTokens: number;
                    outputTokens: number;
                    cost: number;
                };
                error?: string;
                /** @enum {string} */
                previous?: "passed" | "failed" | "error";
            }[];
            passed: number;
            failed: number;
            cost: number;
            previousRunId?: string;
            createdAt: string;
            startedAt?: string;
            completedAt?: string;
        };
        /**
         * @example {
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "scenarioId": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC"
         *     }
         */
        AgentTestRunRequest: {
            agentId: string;
            version?: number;
            scenarioId?: string;
            suite?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "atst_01JWRG5TAR3M8QK2XD6N9BZ4VC",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "name": "Order status by number",
         *       "suite": "orders",
         *       "persona": {
         *         "type": "script",
         *         "lines": [
         *           {
         *             "text": "Hi, where is my order A17?",
         *             "delayMs": 400
         *           },
         *           {
         *             "text": "Great, thanks. Bye!",
         *             "delayMs": 500
         *           }
         *         ]
         *       },
         *       "maxTurns": 10,
         *       "checks": [
         *         {
         *           "type": "tool_called",
         *           "tool": "check_order",
         *           "arguments": {
         *             "order_id": "A17"
         *           }
         *         },
         *         {
         *           "type": "says",
         *           "phrase": "shipped"
         *         },
         *         {
         *           "type": "never_says",
         *           "phrase": "I am an AI"
         *         },
         *         {
         *           "type": "first_reply_within",
         *           "ms": 3000
         *         }
         *       ],
         *       "channel": "chat",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T15:20:45.000Z"
         *     }
         */
        AgentTestScenario: {
            _id: string;
            workspaceId: string;
            name: string;
            suite: string;
            description?: string;
            /** @enum {string} */
            channel: "chat" | "voice";
            conditions?: components["schemas"]["AgentTestVoiceConditions"];
            persona: {
                /** @constant */
                type: "script";
                lines: {
                    text: string;
                    /**
                     * @description wait this long after the agent finished before saying the line
                     * @default 0
                     */
                    delayMs: number;
                }[];
            } | {
                /** @constant */
                type: "model";
                /** @description who the caller is, what they want, how they behave */
                instructions: string;
                /** @description the caller's first line, said as written (no model request) */
                firstLine?: string;
                /** @description the model that plays the caller; default the agent's own llm_provider and llm_model */
                model?: {
                    /** @enum {string} */
                    provider: "openai" | "anthropic" | "google";
                    model: string;
                };
            };
            /** @description Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md) */
            variables?: {
                [key: string]: string | number | boolean;
            };
            contactName?: string;
            maxTurns: number;
            checks: ({
                /** @constant */
                type: "tool_called";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                tool: string;
                arguments?: {
                    [key: string]: string | number | boolean;
                };
            } | {
                /** @constant */
                type: "tool_not_called";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                tool: string;
            } | {
                /** @constant */
                type: "handoff";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /**
                 * @description false: the agent must not transfer or hand off
                 * @default true
                 */
                expected: boolean;
            } | {
                /** @constant */
                type: "end_reason";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @enum {string} */
                reason: "customer_hangup" | "agent_hangup" | "transferred" | "max_duration" | "silence_timeout" | "voicemail" | "busy" | "no_answer" | "failed" | "canceled" | "link_expired" | "not_joined" | "do_not_call" | "tts_voice_not_found" | "tts_auth_failed" | "tts_unavailable" | "stt_auth_failed" | "stt_unavailable" | "llm_auth_failed" | "llm_rate_limited" | "llm_unavailable" | "telephony_failed" | "ended_by_api" | "error";
            } | {
                /** @constant */
                type: "says";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent says this somewhere (case-insensitive) */
                phrase: string;
            } | {
                /** @constant */
                type: "never_says";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent never says this (case-insensitive) */
                phrase: string;
            } | {
                /** @constant */
                type: "first_reply_within";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent's first reply starts within this many ms of the caller's first line */
                ms: number;
            } | {
                /** @constant */
                type: "judge";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description what the agent must have done, in plain words */
                rubric: string;
            })[];
            createdAt: string;
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "Order status by number",
         *       "suite": "orders",
         *       "persona": {
         *         "type": "script",
         *         "lines": [
         *           {
         *             "text": "Hi, where is my order A17?",
         *             "delayMs": 400
         *           },
         *           {
         *             "text": "Great, thanks. Bye!",
         *             "delayMs": 500
         *           }
         *         ]
         *       },
         *       "maxTurns": 10,
         *       "checks": [
         *         {
         *           "type": "tool_called",
         *           "tool": "check_order",
         *           "arguments": {
         *             "order_id": "A17"
         *           }
         *         },
         *         {
         *           "type": "says",
         *           "phrase": "shipped"
         *         },
         *         {
         *           "type": "never_says",
         *           "phrase": "I am an AI"
         *         },
         *         {
         *           "type": "first_reply_within",
         *           "ms": 3000
         *         }
         *       ]
         *     }
         */
        AgentTestScenarioCreate: {
            name: string;
            /** @description Default: `"default"`. */
            suite?: string;
            description?: string;
            /**
             * @description Default: `"chat"`.
             * @enum {string}
             */
            channel?: "chat" | "voice";
            conditions?: components["schemas"]["AgentTestVoiceConditions"];
            persona: {
                /** @constant */
                type: "script";
                lines: {
                    text: string;
                    /** @description wait this long after the agent finished before saying the line Default: `0`. */
                    delayMs?: number;
                }[];
            } | {
                /** @constant */
                type: "model";
                /** @description who the caller is, what they want, how they behave */
                instructions: string;
                /** @description the caller's first line, said as written (no model request) */
                firstLine?: string;
                /** @description the model that plays the caller; default the agent's own llm_provider and llm_model */
                model?: {
                    /** @enum {string} */
                    provider: "openai" | "anthropic" | "google";
                    model: string;
                };
            };
            /** @description Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md) */
            variables?: {
                [key: string]: string | number | boolean;
            };
            contactName?: string;
            /** @description Default: `10`. */
            maxTurns?: number;
            checks: ({
                /** @constant */
                type: "tool_called";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                tool: string;
                arguments?: {
                    [key: string]: string | number | boolean;
                };
            } | {
                /** @constant */
                type: "tool_not_called";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                tool: string;
            } | {
                /** @constant */
                type: "handoff";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description false: the agent must not transfer or hand off Default: `true`. */
                expected?: boolean;
            } | {
                /** @constant */
                type: "end_reason";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @enum {string} */
                reason: "customer_hangup" | "agent_hangup" | "transferred" | "max_duration" | "silence_timeout" | "voicemail" | "busy" | "no_answer" | "failed" | "canceled" | "link_expired" | "not_joined" | "do_not_call" | "tts_voice_not_found" | "tts_auth_failed" | "tts_unavailable" | "stt_auth_failed" | "stt_unavailable" | "llm_auth_failed" | "llm_rate_limited" | "llm_unavailable" | "telephony_failed" | "ended_by_api" | "error";
            } | {
                /** @constant */
                type: "says";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent says this somewhere (case-insensitive) */
                phrase: string;
            } | {
                /** @constant */
                type: "never_says";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent never says this (case-insensitive) */
                phrase: string;
            } | {
                /** @constant */
                type: "first_reply_within";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent's first reply starts within this many ms of the caller's first line */
                ms: number;
            } | {
                /** @constant */
                type: "judge";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description what the agent must have done, in plain words */
                rubric: string;
            })[];
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "maxTurns": 6
         *     }
         */
        AgentTestScenarioUpdate: {
            name?: string;
            suite?: string;
            description?: string;
            /** @enum {string} */
            channel?: "chat" | "voice";
            /** @description replaces them; `{}` for a clean line */
            conditions?: components["schemas"]["AgentTestVoiceConditions"];
            persona?: {
                /** @constant */
                type: "script";
                lines: {
                    text: string;
                    /** @description wait this long after the agent finished before saying the line Default: `0`. */
                    delayMs?: number;
                }[];
            } | {
                /** @constant */
                type: "model";
                /** @description who the caller is, what they want, how they behave */
                instructions: string;
                /** @description the caller's first line, said as written (no model request) */
                firstLine?: string;
                /** @description the model that plays the caller; default the agent's own llm_provider and llm_model */
                model?: {
                    /** @enum {string} */
                    provider: "openai" | "anthropic" | "google";
                    model: string;
                };
            };
            /** @description Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md) */
            variables?: {
                [key: string]: string | number | boolean;
            };
            contactName?: string;
            maxTurns?: number;
            checks?: ({
                /** @constant */
                type: "tool_called";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                tool: string;
                arguments?: {
                    [key: string]: string | number | boolean;
                };
            } | {
                /** @constant */
                type: "tool_not_called";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                tool: string;
            } | {
                /** @constant */
                type: "handoff";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description false: the agent must not transfer or hand off Default: `true`. */
                expected?: boolean;
            } | {
                /** @constant */
                type: "end_reason";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @enum {string} */
                reason: "customer_hangup" | "agent_hangup" | "transferred" | "max_duration" | "silence_timeout" | "voicemail" | "busy" | "no_answer" | "failed" | "canceled" | "link_expired" | "not_joined" | "do_not_call" | "tts_voice_not_found" | "tts_auth_failed" | "tts_unavailable" | "stt_auth_failed" | "stt_unavailable" | "llm_auth_failed" | "llm_rate_limited" | "llm_unavailable" | "telephony_failed" | "ended_by_api" | "error";
            } | {
                /** @constant */
                type: "says";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent says this somewhere (case-insensitive) */
                phrase: string;
            } | {
                /** @constant */
                type: "never_says";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent never says this (case-insensitive) */
                phrase: string;
            } | {
                /** @constant */
                type: "first_reply_within";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description the agent's first reply starts within this many ms of the caller's first line */
                ms: number;
            } | {
                /** @constant */
                type: "judge";
                /** @description shown beside the verdict; defaults to a description of the check */
                label?: string;
                /** @description what the agent must have done, in plain words */
                rubric: string;
            })[];
        };
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
        AgentTestVoiceConditions: {
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
        AgentUpdate: {
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
        /**
         * @example {
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "version": 3,
         *       "note": "Offers to reschedule before ending the call",
         *       "publishedAt": "2025-06-02T15:20:45.000Z",
         *       "agent": {
         *         "_id": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *         "name": "Appointment reminder",
         *         "llm_provider": "openai",
         *         "llm_model": "gpt-4o-mini",
         *         "tts_provider": "elevenlabs",
         *         "stt_provider": "deepgram",
         *         "system_prompt": "You call patients of Bayview Dental to confirm tomorrow's appointment. Be brief and friendly; offer to reschedule if they cannot come.",
         *         "first_message": "Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?",
         *         "recording_enabled": true,
         *         "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *         "createdAt": "2025-06-02T14:03:11.000Z",
         *         "tts_voice_id": "21m00Tcm4TlvDq8ikWAM",
         *         "language": "en-US",
         *         "first_message_mode": "agent_speaks_first",
         *         "first_message_interruptible": false,
         *         "ambience_enabled": false,
         *         "pronunciations": [
         *           {
         *             "word": "Invisalign",
         *             "say_as": "in vizz a line"
         *           },
         *           {
         *             "word": "Nguyen",
         *             "phoneme": "wɪn",
         *             "alphabet": "ipa"
         *           }
         *         ],
         *         "voicemail_detection": "detect_message_end",
         *         "voicemail_action": "leave_message",
         *         "voicemail_message": "Hi {{contactName}}, this is Bayview Dental about your appointment tomorrow. Please call us back. Thank you!",
         *         "max_duration_seconds": 600,
         *         "dtmf_shortcuts": {
         *           "0": {
         *             "action": "transfer",
         *             "destination": "+14155550142",
         *             "mode": "warm"
         *           }
         *         },
         *         "transfer_mode": "warm",
         *         "updatedAt": "2025-06-02T15:20:45.000Z",
         *         "published_version": null,
         *         "has_unpublished_changes": false
         *       }
         *     }
         */
        AgentVersion: {
            agentId: string;
            version: number;
            note: string;
            /** Format: date-time */
            publishedAt: string;
            agent: components["schemas"]["Agent"];
        };
        /**
         * @example {
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "version": 2,
         *       "note": "Warm transfers to the front desk",
         *       "publishedAt": "2025-06-02T15:20:45.000Z"
         *     }
         */
        AgentVersionListItem: {
            agentId: string;
            version: number;
            note: string;
            /** Format: date-time */
            publishedAt: string;
        };
        /**
         * @example {
         *       "number": "+14155550123",
         *       "friendlyName": "(415) 555-0123",
         *       "locality": "San Francisco",
         *       "region": "CA",
         *       "postalCode": "94103",
         *       "country": "US",
         *       "capabilities": {
         *         "voice": true,
         *         "sms": true,
         *         "mms": true
         *       }
         *     }
         */
        AvailablePhoneNumber: {
            number: string;
            friendlyName: string;
            locality: string | null;
            region: string | null;
            postalCode: string | null;
            country: string;
            capabilities: {
                voice: boolean;
                sms: boolean;
                mms: boolean;
            };
        };
        /**
         * @example {
         *       "stage": "tts",
         *       "vendor": "elevenlabs",
         *       "code": "voice_not_found",
         *       "message": "elevenlabs answered HTTP 404: A voice with voice_id voice-1 does not exist.",
         *       "atSecond": 0.2
         *     }
         */
        CallError: {
            /** @enum {string} */
            stage: "stt" | "tts" | "llm" | "telephony" | "tool";
            vendor: string;
            code: string | null;
            message: string;
            atSecond: number;
        };
        /**
         * @example {
         *       "totalMs": 932,
         *       "endOfTurnMs": 310,
         *       "llmFirstTokenMs": 403,
         *       "llmFirstPhraseMs": 88,
         *       "ttsFirstByteMs": 122,
         *       "otherMs": 9
         *     }
         */
        CallerWait: {
            /** @description End of the caller's speech (their last voiced audio) to the first agent audio sent */
            totalMs: number;
            /** @description End of speech to the turn taken as ended: the recognizer's endpointing and final, and any wait on an unfinished sentence */
            endOfTurnMs: number;
            /** @description The wait on the model's first token (0 when the caller did not wait on it; null when it gave none) */
            llmFirstTokenMs: number | null;
            /** @description The wait from the first token to the first phrase complete enough to speak */
            llmFirstPhraseMs: number | null;
            /** @description The wait from the first phrase sent to the voice to its first audio byte */
            ttsFirstByteMs: number | null;
            /** @description The rest: this service's own time (scheduling, queueing, encoding) and tool runs before the first words */
            otherMs: number;
        };
        /**
         * @example {
         *       "atMs": 6420,
         *       "type": "turn",
         *       "sttMs": 310.2,
         *       "llmFirstTokenMs": 402.5,
         *       "llmFirstPhraseMs": 88.1,
         *       "ttsFirstByteMs": 121.7,
         *       "overheadMs": 9.4,
         *       "callerWait": {
         *         "totalMs": 932,
         *         "endOfTurnMs": 310,
         *         "llmFirstTokenMs": 403,
         *         "llmFirstPhraseMs": 88,
         *         "ttsFirstByteMs": 122,
         *         "otherMs": 9
         *       }
         *     }
         */
        CallEvent: {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "vendor_connected";
            /** @enum {string} */
            stage: "stt" | "tts";
            vendor: string;
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "vendor_fallback";
            /** @enum {string} */
            stage: "stt" | "tts" | "llm" | "realtime";
            vendor: string;
            to: string;
            code: string | null;
            message: string;
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "turn";
            sttMs: number | null;
            llmFirstTokenMs: number | null;
            llmFirstPhraseMs: number | null;
            ttsFirstByteMs: number | null;
            overheadMs: number | null;
            callerWait?: components["schemas"]["CallerWait"] | null;
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "interruption";
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "tool_call";
            name: string;
            /** @enum {string} */
            status: "ok" | "error";
            durationMs: number;
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "transfer";
            destination: string;
            /** @enum {string} */
            mode: "cold" | "warm";
            outcome: string;
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "error";
            /** @enum {string} */
            stage: "stt" | "tts" | "llm" | "telephony" | "tool";
            vendor: string;
            code: string | null;
            message: string;
            fatal: boolean;
        } | {
            /** @description Milliseconds from the call start */
            atMs: number;
            /** @constant */
            type: "ended";
            reason: string;
        };
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
        CallEvents: {
            callId: string;
            data: components["schemas"]["CallEvent"][];
            truncated: boolean;
            limit: number;
        };
        /**
         * @example {
         *       "call_id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
         *       "status": "initiated"
         *     }
         */
        CallStarted: {
            call_id: string;
            /** @constant */
            status: "initiated";
        };
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
        CallView: {
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
        /**
         * @example {
         *       "name": "June appointment reminders",
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "phoneNumberIds": [
         *         "pn_01JWRFFEMRDV3APXSJENM3G73Y"
         *       ],
         *       "contacts": {
         *         "contactIds": [
         *           "ct_01JWRFDM1R9CFJ88P7TD5FBWNC"
         *         ]
         *       },
         *       "callingWindow": {
         *         "start": "09:00",
         *         "end": "20:00",
         *         "days": [
         *           "mon",
         *           "tue",
         *           "wed",
         *           "thu",
         *           "fri"
         *         ]
         *       },
         *       "concurrency": 2,
         *       "retry": {
         *         "no_answer": {
         *           "retries": 2,
         *           "delayMinutes": 60
         *         }
         *       },
         *       "variables": {
         *         "clinic": "Bayview Dental"
         *       }
         *     }
         */
        CampaignCreate: {
            name: string;
            agentId: string;
            /** @description a published version of the agent to run instead of its latest (docs/agent-versions.md) */
            agent_version?: number;
            /** @description numbers to call from, used in turn */
            phoneNumberIds: string[];
            contacts: {
                contactIds: string[];
            } | {
                search: string;
            } | {
                importId: string;
            };
            /** @description Default: `{}`. */
            schedule?: {
                /** Format: date-time */
                startAt?: string;
                /** Format: date-time */
                endAt?: string;
            };
            /** @description Default: `{"start":"09:00","end":"20:00","days":["mon","tue","wed","thu","fri"]}`. */
            callingWindow?: {
                /** @description Default: `"09:00"`. */
                start?: string;
                /** @description Default: `"20:00"`. */
                end?: string;
                /** @description Default: `["mon","tue","wed","thu","fri"]`. */
                days?: ("sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat")[];
                /** @description Read the window in this zone for every contact; by default each contact's own (its timeZone field, else its number's country) */
                timeZone?: string;
            };
            /** @description Default: `5`. */
            concurrency?: number;
            /** @description Default: `{"no_answer":{"retries":2,"delayMinutes":60},"busy":{"retries":2,"delayMinutes":15},"voicemail":{"retries":1,"delayMinutes":240},"failed":{"retries":1,"delayMinutes":30}}`. */
            retry?: {
                /** @description Default: `{"retries":2,"delayMinutes":60}`. */
                no_answer?: {
                    /** @description how many more times a contact is called after this outcome */
                    retries: number;
                    /** @description minutes before the next try */
                    delayMinutes: number;
                };
                /** @description Default: `{"retries":2,"delayMinutes":15}`. */
                busy?: {
                    /** @description how many more times a contact is called after this outcome */
                    retries: number;
                    /** @description minutes before the next try */
                    delayMinutes: number;
                };
                /** @description Default: `{"retries":1,"delayMinutes":240}`. */
                voicemail?: {
                    /** @description how many more times a contact is called after this outcome */
                    retries: number;
                    /** @description minutes before the next try */
                    delayMinutes: number;
                };
                /** @description Default: `{"retries":1,"delayMinutes":30}`. */
                failed?: {
                    /** @description how many more times a contact is called after this outcome */
                    retries: number;
                    /** @description minutes before the next try */
                    delayMinutes: number;
                };
            };
            /** @description Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md) */
            variables?: {
                [key: string]: string | number | boolean;
            };
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C",
         *       "name": "June appointment reminders",
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "phoneNumberIds": [
         *         "pn_01JWRFFEMRDV3APXSJENM3G73Y"
         *       ],
         *       "contacts": {
         *         "contactIds": [
         *           "ct_01JWRFDM1R9CFJ88P7TD5FBWNC"
         *         ]
         *       },
         *       "schedule": {
         *         "startAt": "2025-06-02T13:00:00.000Z",
         *         "endAt": "2025-06-09T01:00:00.000Z"
         *       },
         *       "callingWindow": {
         *         "start": "09:00",
         *         "end": "20:00",
         *         "days": [
         *           "mon",
         *           "tue",
         *           "wed",
         *           "thu",
         *           "fri"
         *         ]
         *       },
         *       "concurrency": 2,
         *       "retry": {
         *         "no_answer": {
         *           "retries": 2,
         *           "delayMinutes": 60
         *         },
         *         "busy": {
         *           "retries": 2,
         *           "delayMinutes": 15
         *         },
         *         "voicemail": {
         *           "retries": 1,
         *           "delayMinutes": 240
         *         },
         *         "failed": {
         *           "retries": 1,
         *           "delayMinutes": 30
         *         }
         *       },
         *       "status": "draft",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T15:20:45.000Z",
         *       "progress": {
         *         "status": "draft",
         *         "contacts": {
         *           "total": 1,
         *           "pending": 1,
         *           "inFlight": 0,
         *           "finished": 0,
         *           "skipped": 0
         *         },
         *         "outcomes": {
         *           "answered": 0,
         *           "voicemail": 0,
         *           "busy": 0,
         *           "no_answer": 0,
         *           "failed": 0
         *         },
         *         "attempts": {
         *           "answered": 0,
         *           "voicemail": 0,
         *           "busy": 0,
         *           "no_answer": 0,
         *           "failed": 0
         *         },
         *         "nextAttempts": [
         *           {
         *             "contactId": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
         *             "at": "2025-06-02T14:03:11.000Z"
         *           }
         *         ]
         *       },
         *       "variables": {
         *         "clinic": "Bayview Dental"
         *       }
         *     }
         */
        CampaignDetail: {
            _id: string;
            name: string;
            agentId: string;
            agent_version?: number;
            phoneNumberIds: string[];
            contacts: {
                contactIds: string[];
            } | {
                search: string;
            } | {
                importId: string;
            };
            schedule: {
                /** Format: date-time */
                startAt?: string;
                /** Format: date-time */
                endAt?: string;
            };
            callingWindow: {
                start: string;
                end: string;
                days: ("sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat")[];
                timeZone?: string;
            };
            concurrency: number;
            retry: {
                no_answer: {
                    retries: number;
                    delayMinutes: number;
                };
                busy: {
                    retries: number;
                    delayMinutes: number;
                };
                voicemail: {
                    retries: number;
                    delayMinutes: number;
                };
                failed: {
                    retries: number;
                    delayMinutes: number;
                };
            };
            variables?: {
                [key: string]: string | number | boolean;
            };
            /** @enum {string} */
            status: "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
            statusReason?: string;
            workspaceId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            progress: {
                /** @enum {string} */
                status: "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
                statusReason?: string;
                contacts: {
                    total: number;
                    pending: number;
                    inFlight: number;
                    finished: number;
                    skipped: number;
                };
                /** @description each finished contact's last outcome */
                outcomes: {
                    answered: number;
                    voicemail: number;
                    busy: number;
                    no_answer: number;
                    failed: number;
                };
                /** @description every dial's outcome */
                attempts: {
                    answered: number;
                    voicemail: number;
                    busy: number;
                    no_answer: number;
                    failed: number;
                };
                /** @description the next contacts due, earliest first (at most 10) */
                nextAttempts: {
                    contactId: string;
                    /** Format: date-time */
                    at: string;
                }[];
            };
        };
        /**
         * @example {
         *       "_id": "cmp_01JWRFTPKR8D2MZ6XQ4VN7HB3C",
         *       "name": "June appointment reminders",
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "status": "running",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        CampaignListItem: {
            _id: string;
            name: string;
            agentId: string;
            /** @enum {string} */
            status: "draft" | "scheduled" | "running" | "paused" | "completed" | "cancelled";
            statusReason?: string;
            workspaceId: string;
            /** Format: date-time */
            createdAt: string;
        };
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
        CampaignResult: {
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
        /**
         * @example {
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "contactName": "Ada Lovelace",
         *       "variables": {
         *         "contactName": "Ada Lovelace",
         *         "order_id": "A-1042"
         *       }
         *     }
         */
        ChatRequest: {
            agentId: string;
            contactName?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
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
        /**
         * @example {
         *       "chatId": "call_01JWRFM8Q2D7XK4TNV9B3C6YHZ",
         *       "agentName": "Ava",
         *       "chatUrl": "wss://stream.example.com/web-chat",
         *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
         *       "expiresAt": "2026-11-23T16:10:00.000Z"
         *     }
         */
        ChatStarted: {
            chatId: string;
            agentName: string;
            chatUrl: string;
            credential: string;
            /** Format: date-time */
            expiresAt: string;
            standIns?: {
                parts: {
                    /**
                     * @description `stt` speech recognition, `llm` the language model, `tts` the voice, `telephony` phone calls.
                     * @enum {string}
                     */
                    capability: "stt" | "llm" | "tts" | "telephony";
                    /** @description The vendor the agent names (`deepgram`, `openai`, `twilio`, ...). */
                    vendor: string;
                    /** @description The environment variable whose real key switches this vendor to its real service. */
                    keyVariable: string;
                }[];
                /** @description What is simulated and how to make it real, one paragraph to show as is. */
                message: string;
            };
        };
        /**
         * @example {
         *       "_id": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
         *       "contactName": "Ada Lovelace",
         *       "phoneNumber": "+14155552671",
         *       "region": "US",
         *       "externalFields": {
         *         "company": "Analytical Engines Ltd",
         *         "plan": "pro",
         *         "seats": 12,
         *         "vip": true
         *       },
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        Contact: {
            _id: string;
            contactName: string;
            phoneNumber: string;
            region: string;
            workspaceId: string;
            externalFields: {
                [key: string]: string | number | boolean;
            };
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @example {
         *       "contactName": "Ada Lovelace",
         *       "phoneNumber": "+14155552671",
         *       "region": "US",
         *       "externalFields": {
         *         "company": "Analytical Engines Ltd",
         *         "plan": "pro",
         *         "seats": 12,
         *         "vip": true
         *       }
         *     }
         */
        ContactCreate: {
            contactName: string;
            phoneNumber: string;
            /** @description free text up to 100 characters, for example "California" or "GB"; derived from the number (ISO 3166-1 alpha-2) when omitted or blank */
            region?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
            /** @description Default: `{}`. */
            externalFields?: {
                [key: string]: string | number | boolean;
            };
        };
        ContactImportForm: {
            /**
             * Format: binary
             * @description CSV (UTF-8, header row) or .xlsx; at most 4 MiB
             */
            file: Blob;
            /** @description Required: the API key's workspace (403 for another one). */
            workspaceId: string;
            /** @description ISO 3166-1 alpha-2 country for numbers written without + */
            defaultCountry?: string;
        };
        /**
         * @example {
         *       "imported": 2,
         *       "skipped": 1,
         *       "errors": [
         *         {
         *           "row": 4,
         *           "column": "phoneNumber",
         *           "value": "555-0199",
         *           "message": "is not a valid phone number"
         *         }
         *       ]
         *     }
         */
        ContactImportResult: {
            imported: number;
            skipped: number;
            errors: components["schemas"]["ContactImportRowError"][];
            /** @description names the contacts this upload wrote: a campaign can call them (docs/campaigns.md) */
            importId?: string;
        };
        ContactImportRowError: {
            row: number;
            column: string;
            value: string;
            message: string;
        };
        /**
         * @example {
         *       "_id": "ct_01JWRFDM1R9CFJ88P7TD5FBWNC",
         *       "contactName": "Ada Lovelace",
         *       "phoneNumber": "+14155552671",
         *       "region": "US",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
         *     }
         */
        ContactListItem: {
            _id: string;
            contactName: string;
            phoneNumber: string;
            region: string;
            workspaceId: string;
        };
        /**
         * @example {
         *       "contactName": "Ada King",
         *       "externalFields": {
         *         "plan": "enterprise",
         *         "vip": null
         *       }
         *     }
         */
        ContactUpdate: {
            contactName?: string;
            phoneNumber?: string;
            region?: string | null;
            workspaceId?: string;
            externalFields?: {
                [key: string]: string | number | boolean | null;
            };
        };
        /**
         * @example {
         *       "message": "The caller is a returning customer; offer the loyalty discount."
         *     }
         */
        ContextRequest: {
            message: string;
        };
        /**
         * @example {
         *       "phoneNumber": "+14155550188",
         *       "reason": "Asked by email not to be called"
         *     }
         */
        DncCreate: {
            phoneNumber: string;
            reason?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "phoneNumber": "+14155550188",
         *       "source": "api",
         *       "reason": "Asked by email not to be called",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        DncEntry: {
            phoneNumber: string;
            /** @enum {string} */
            source: "api" | "upload" | "opt_out";
            reason?: string;
            callId?: string;
            workspaceId: string;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @example {
         *       "added": 120,
         *       "existing": 3,
         *       "errors": [
         *         {
         *           "row": 7,
         *           "value": "12345",
         *           "message": "not a phone number in E.164 form (or set defaultCountry)"
         *         }
         *       ]
         *     }
         */
        DncImportResult: {
            added: number;
            existing: number;
            errors: {
                row: number;
                value: string;
                message: string;
            }[];
        };
        /**
         * @example {
         *       "message": "A colleague will call you back shortly. Goodbye."
         *     }
         */
        EndCallRequest: {
            message?: string;
        };
        Error: {
            error: {
                /**
                 * @description Stable snake_case code to branch on, e.g. validation_failed. New codes may be added.
                 * @enum {string}
                 */
                code: "bad_request" | "validation_failed" | "invalid_json" | "forbidden_key" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "payload_too_large" | "headers_too_large" | "unsupported_media_type" | "insufficient_credits" | "rate_limited" | "service_unavailable" | "internal_error" | "phone_number_taken" | "do_not_call" | "idempotency_key_reused" | "agent_not_allowed" | "already_member" | "campaign_not_startable" | "challenge_unsupported" | "country_not_supported" | "csrf_refused" | "email_not_verified" | "email_taken" | "full_key_in_page" | "invalid_campaign_state" | "invalid_code" | "invalid_credentials" | "invalid_multipart" | "invalid_search" | "invalid_signature" | "invalid_text" | "invalid_webhook" | "invitation_expired" | "invitation_for_another" | "invitation_invalid" | "limit_exceeded" | "link_expired" | "link_used" | "not_a_member" | "number_refused" | "number_routed_elsewhere" | "number_unavailable" | "origin_not_allowed" | "owner_required" | "session_required" | "sign_in_unavailable" | "unavailable" | "unsupported_file_type" | "user_not_confirmed" | "user_session_required" | "weak_password" | "webhook_disabled" | "widget_key" | "ambiguous_columns" | "cell_too_large" | "duplicate_column" | "empty_file" | "file_too_large" | "forbidden_column" | "invalid_csv" | "invalid_header" | "invalid_xlsx" | "missing_columns" | "missing_header" | "missing_variables" | "too_many_columns" | "too_many_rows" | "workbook_too_large" | "number_not_in_account" | "telephony_credentials_invalid" | "unknown_agent" | "mcp_server_unreachable" | "agent_changed" | "call_ended" | "call_not_connected" | "no_phone_line" | "transfer_in_progress" | "mcp_server_invalid" | "mcp_too_many_tools" | "mcp_schema_too_large" | "not_an_mcp_tool" | "invalid_document" | "document_too_large" | "knowledge_base_full" | "url_refused";
                /** @description A human sentence; may change between releases. */
                message: string;
                /** @description Usually a list of {field, message}; an object for some codes (insufficient_credits: {required, available}). */
                details: ({
                    /** @description Dotted path of the offending input, e.g. config.url or query.limit. */
                    field?: string;
                    message?: string;
                    /** @description The unknown field names, on an unrecognized-keys failure. */
                    keys?: string[];
                } & {
                    [key: string]: unknown;
                })[] | {
                    [key: string]: unknown;
                };
            };
        };
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
        HistoryListItem: {
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
        HistoryRecord: {
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
                callerWait?: components["schemas"]["CallerWait"] | null;
            }[];
            latencySummary?: components["schemas"]["LatencySummary"];
            variables?: {
                [key: string]: string | number | boolean;
            };
            agentOverrides?: string[];
            agentVersion?: number;
            callError?: components["schemas"]["CallError"];
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
        /**
         * @description Calls your HTTP endpoint: config.method and config.url (placeholders name parameters).
         * @example {
         *       "name": "check_order_status",
         *       "type": "http",
         *       "description": "Looks up the delivery status of an order by its number.",
         *       "config": {
         *         "method": "GET",
         *         "url": "https://api.example.com/orders/{order_id}/status",
         *         "headers": {
         *           "Authorization": "Bearer sk_test_51Hc2xV0a9Q7"
         *         }
         *       },
         *       "parameters": [
         *         {
         *           "name": "order_id",
         *           "description": "The order number the caller reads out, e.g. 10023",
         *           "required": true
         *         }
         *       ]
         *     }
         */
        HttpToolCreate: {
            name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "http";
            description: string;
            templateId?: string;
            config: {
                /** @enum {string} */
                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                url: string;
                headers?: {
                    [key: string]: string;
                };
                body?: string | {
                    [key: string]: unknown;
                } | unknown[];
                settings?: {
                    [key: string]: string | number;
                };
                allowed_tools?: string[];
            };
            /** @description Default: `[]`. */
            parameters?: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "dlv_01JWRFXQ4R7N2KD5TB8MZ3VC6W",
         *       "eventId": "evt_01JWRFXQ3R9H4BD6QT1NZ8KC2V",
         *       "callId": "call_01JWRFXQ3RK2M7TV5B9QD4XN8C",
         *       "outcome": "fallback",
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "reason": "HTTP 503: only a 2xx answer is used",
         *       "status": 503,
         *       "latencyMs": 48,
         *       "responseExcerpt": "{\"error\":\"maintenance\"}",
         *       "createdAt": "2025-06-02T16:12:09.310Z"
         *     }
         */
        InboundDelivery: {
            _id: string;
            eventId: string;
            callId: string;
            /** @enum {string} */
            outcome: "routed" | "rejected" | "fallback";
            agentId?: string;
            reason?: string;
            status?: number;
            latencyMs: number;
            responseExcerpt?: string;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @description A ready-made integration: templateId, its config.settings and required headers (GET /api/tool-templates).
         * @example {
         *       "name": "book_demo",
         *       "type": "integration",
         *       "description": "Books a 30-minute demo in our Cal.com calendar.",
         *       "templateId": "calcom.book_meeting",
         *       "config": {
         *         "headers": {
         *           "Authorization": "Bearer cal_live_4f1c9a"
         *         },
         *         "settings": {
         *           "event_type_id": 123456
         *         }
         *       }
         *     }
         */
        IntegrationToolCreate: {
            name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "integration";
            description: string;
            templateId: string;
            config?: {
                /** @enum {string} */
                method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                url?: string;
                headers?: {
                    [key: string]: string;
                };
                body?: string | {
                    [key: string]: unknown;
                } | unknown[];
                settings?: {
                    [key: string]: string | number;
                };
                allowed_tools?: string[];
            };
            /** @description Default: `[]`. */
            parameters?: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
         *       "name": "Front desk FAQ",
         *       "description": "Opening hours, parking, prices and insurance plans.",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "embeddingModel": "text-embedding-3-small",
         *       "dimensions": 256,
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        KnowledgeBase: {
            _id: string;
            name: string;
            description: string;
            workspaceId: string;
            embeddingModel: string;
            dimensions: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "Front desk FAQ",
         *       "description": "Opening hours, parking, prices and insurance plans."
         *     }
         */
        KnowledgeBaseCreate: {
            name: string;
            /** @description Default: `""`. */
            description?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
         *       "name": "Front desk FAQ",
         *       "description": "Opening hours, parking, prices and insurance plans.",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "embeddingModel": "text-embedding-3-small",
         *       "dimensions": 256,
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T14:03:11.000Z",
         *       "documents": [
         *         {
         *           "_id": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
         *           "knowledgeBaseId": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
         *           "name": "Parking and hours",
         *           "format": "text",
         *           "status": "ready",
         *           "sizeBytes": 214,
         *           "revision": 1,
         *           "createdAt": "2025-06-02T14:03:11.000Z",
         *           "updatedAt": "2025-06-02T15:20:45.000Z",
         *           "chunks": 2,
         *           "characters": 214
         *         }
         *       ]
         *     }
         */
        KnowledgeBaseDetail: {
            _id: string;
            name: string;
            description: string;
            workspaceId: string;
            embeddingModel: string;
            dimensions: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            documents: components["schemas"]["KnowledgeDocument"][];
        };
        /**
         * @example {
         *       "_id": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
         *       "knowledgeBaseId": "kb_01JWRG0A4R7N3KQ5XB8D2MZ6VT",
         *       "name": "Parking and hours",
         *       "format": "text",
         *       "status": "processing",
         *       "sizeBytes": 214,
         *       "revision": 1,
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        KnowledgeDocument: {
            _id: string;
            knowledgeBaseId: string;
            name: string;
            /** @enum {string} */
            format: "text" | "markdown" | "html" | "csv" | "docx" | "pdf" | "url";
            /** @enum {string} */
            status: "processing" | "ready" | "failed";
            /** @description why ingestion failed (status failed) */
            error?: string;
            sizeBytes: number;
            url?: string;
            chunks?: number;
            characters?: number;
            revision: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "Parking and hours",
         *       "text": "Free parking is available behind the building on Harbor Street; the first two hours are validated at reception. We are open Monday to Friday, 8am to 6pm."
         *     }
         */
        KnowledgeDocumentCreate: {
            name?: string;
            text?: string;
            /** Format: uri */
            url?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "chunkId": "kch_01JWRG3ZYR2P6QK9XD4M8BN7TC",
         *       "documentId": "kdoc_01JWRG25GR4T8MB1XQ6N3KD9ZW",
         *       "documentName": "Parking and hours",
         *       "text": "Free parking is available behind the building on Harbor Street; the first two hours are validated at reception.",
         *       "score": 0.032787,
         *       "vectorScore": 0.612344,
         *       "keywordScore": 2.418,
         *       "section": "Parking",
         *       "start": 96,
         *       "end": 208
         *     }
         */
        KnowledgeHit: {
            chunkId: string;
            documentId: string;
            documentName: string;
            text: string;
            /** @description fused score (reciprocal rank fusion of vector and keyword ranks), higher is better */
            score: number;
            /** @description cosine similarity of the query and chunk embeddings */
            vectorScore: number;
            /** @description BM25 score of the query words in the chunk (0: no word in common) */
            keywordScore: number;
            /** @description the heading path the chunk sits under */
            section?: string;
            page?: number;
            /** @description offset of the chunk in the document text, in characters */
            start: number;
            end: number;
        };
        /**
         * @example {
         *       "query": "Where can I park?",
         *       "k": 3
         *     }
         */
        KnowledgeQuery: {
            query: string;
            /** @description Default: `5`. */
            k?: number;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        KnowledgeUploadForm: {
            /**
             * Format: binary
             * @description PDF, DOCX, TXT, Markdown, HTML or CSV (UTF-8); at most 4 MiB and 500 pages
             */
            file: Blob;
            workspaceId?: string;
            name?: string;
        };
        /**
         * @example {
         *       "turns": 6,
         *       "measuredTurns": 5,
         *       "callerWaitP50Ms": 932,
         *       "callerWaitP90Ms": 1480,
         *       "callerWaitMaxMs": 1480
         *     }
         */
        LatencySummary: {
            /** @description Caller turns in the call */
            turns: number;
            /** @description Turns with a caller wait (the others were interrupted before the agent spoke, or it never did) */
            measuredTurns: number;
            /** @description Median caller wait (nearest rank), ms; null when no turn was measured */
            callerWaitP50Ms: number | null;
            /** @description 90th percentile caller wait (nearest rank), ms; null when no turn was measured */
            callerWaitP90Ms: number | null;
            /** @description Longest caller wait, ms; null when no turn was measured */
            callerWaitMaxMs: number | null;
        };
        /**
         * @example {
         *       "url": "wss://stream.example.com/live/listen?token=vlt1.eyJ3b3Jrc3BhY2VJZCI6IndzXzAxIn0.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
         *       "expiresAt": "2025-06-02T14:09:19.000Z",
         *       "format": {
         *         "encoding": "pcm_s16le",
         *         "sampleRate": 8000,
         *         "channels": [
         *           "caller",
         *           "agent"
         *         ],
         *         "headerBytes": 8
         *       }
         *     }
         */
        ListenResult: {
            url: string;
            expiresAt: string;
            format: {
                /** @constant */
                encoding: "pcm_s16le";
                sampleRate: 8000 | 16000;
                channels: [
                    "caller",
                    "agent"
                ];
                /** @constant */
                headerBytes: 8;
            };
        };
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
         *       "answeredAt": "2025-06-02T14:03:19.000Z"
         *     }
         */
        LiveCall: {
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
        };
        /**
         * @example {
         *       "id": "call_01JWRFH97RNSQ4B7JD31A2QE39",
         *       "status": "ending"
         *     }
         */
        LiveControlResult: {
            id: string;
            /** @enum {string} */
            status: "ending" | "ended" | "speaking" | "queued" | "context_added" | "transferring";
            replayed?: boolean;
        };
        /**
         * @description Connects an MCP server at config.url; the tools it lists are discovered at save (config.allowed_tools picks which the agent may call).
         * @example {
         *       "name": "Weather",
         *       "type": "mcp",
         *       "description": "Weather forecasts from our MCP server.",
         *       "config": {
         *         "url": "https://mcp.example.com/mcp",
         *         "headers": {
         *           "Authorization": "Bearer mcp_live_8d2f41"
         *         },
         *         "allowed_tools": [
         *           "get_forecast"
         *         ]
         *       }
         *     }
         */
        McpToolCreate: {
            name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "mcp";
            description: string;
            templateId?: string;
            config: {
                headers?: {
                    [key: string]: string;
                };
                allowed_tools?: string[];
                /** @description The MCP server endpoint (Streamable HTTP, or HTTP+SSE) */
                url: string;
            };
            /** @description Default: `[]`. */
            parameters?: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "callId": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
         *       "agentName": "Ava",
         *       "streamUrl": "wss://stream.example.com/web-stream",
         *       "credential": "wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28",
         *       "expiresAt": "2026-11-23T15:20:00.000Z"
         *     }
         */
        MeetingJoined: {
            callId: string;
            agentName: string;
            streamUrl: string;
            credential: string;
            /** Format: date-time */
            expiresAt: string;
            standIns?: {
                parts: {
                    /**
                     * @description `stt` speech recognition, `llm` the language model, `tts` the voice, `telephony` phone calls.
                     * @enum {string}
                     */
                    capability: "stt" | "llm" | "tts" | "telephony";
                    /** @description The vendor the agent names (`deepgram`, `openai`, `twilio`, ...). */
                    vendor: string;
                    /** @description The environment variable whose real key switches this vendor to its real service. */
                    keyVariable: string;
                }[];
                /** @description What is simulated and how to make it real, one paragraph to show as is. */
                message: string;
            };
        };
        /**
         * @example {
         *       "assistantId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "contactName": "Ada Lovelace",
         *       "phoneNumber": "+14155552671",
         *       "variables": {
         *         "first_name": "Ada"
         *       }
         *     }
         */
        MeetingLinkRequest: {
            assistantId: string;
            contactName?: string;
            phoneNumber?: string;
            workspaceId?: string;
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
        /**
         * @example {
         *       "call_id": "call_01JWRFK3TRZXKY0WVNX2WE4XSF",
         *       "room_url": "https://api.example.com/meeting/call_01JWRFK3TRZXKY0WVNX2WE4XSF?token=q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc"
         *     }
         */
        MeetingLinkResult: {
            call_id: string;
            room_url: string;
        };
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
        PhoneCallRequest: {
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
        /**
         * @example {
         *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
         *       "number": "+14155550123",
         *       "status": "active",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "agent_version": null,
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T15:20:45.000Z"
         *     }
         */
        PhoneNumber: {
            _id: string;
            number: string;
            /** @constant */
            status: "active";
            workspaceId: string;
            /** @constant */
            type?: "byot";
            agentId: string | null;
            agent_version: number | null;
            telephonyAccountSid?: string;
            inbound_webhook_url?: string;
            inbound_webhook_secret?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
         *       "number": "+14155550123",
         *       "status": "active",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG"
         *     }
         */
        PhoneNumberBought: {
            _id: string;
            number: string;
            /** @constant */
            status: "active";
            workspaceId: string;
        };
        /**
         * @example {
         *       "phoneNumber": "+14155550123"
         *     }
         */
        PhoneNumberBuy: {
            phoneNumber: string;
            /** @description Asked before each inbound call is answered: it may pick the agent, give variables, agent_overrides and metadata, or reject the call (docs/telephony.md) */
            inbound_webhook_url?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "phoneNumber": "+14155550142",
         *       "telephonyAccountSid": "AC3f9c2a71d4e85b06a7c1e9d2b4f60a58",
         *       "telephonyAuthToken": "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
         *     }
         */
        PhoneNumberImport: {
            phoneNumber: string;
            telephonyAccountSid: string;
            telephonyAuthToken: string;
            /** @description Asked before each inbound call is answered: it may pick the agent, give variables, agent_overrides and metadata, or reject the call (docs/telephony.md) */
            inbound_webhook_url?: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "pn_01JWRFFEMRDV3APXSJENM3G73Y",
         *       "number": "+14155550142",
         *       "status": "active",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "type": "byot"
         *     }
         */
        PhoneNumberImported: {
            _id: string;
            number: string;
            /** @constant */
            status: "active";
            workspaceId: string;
            /** @constant */
            type: "byot";
        };
        /**
         * @example {
         *       "agentId": "agt_01JWRF9YVRV07ZX0MV7YH6S11D",
         *       "inbound_webhook_url": "https://crm.example.com/voice/inbound"
         *     }
         */
        PhoneNumberUpdate: {
            agentId?: string | null;
            inbound_webhook_url?: string | null;
            agent_version?: number | null;
            workspaceId?: string;
        };
        /**
         * @example {
         *       "provider": "deepgram",
         *       "last4": "9a0f",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T15:20:45.000Z",
         *       "lastTestedAt": "2025-06-02T15:20:45.000Z",
         *       "lastTestResult": "valid"
         *     }
         */
        ProviderKey: {
            /** @enum {string} */
            provider: "openai" | "anthropic" | "google" | "deepgram" | "assemblyai" | "speechmatics" | "elevenlabs" | "cartesia";
            last4: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** Format: date-time */
            lastTestedAt?: string;
            /** @enum {string} */
            lastTestResult?: "valid" | "invalid" | "unreachable";
        };
        /**
         * @example {
         *       "apiKey": "3f1b9c0d2e7a48f5b6c1d09e8a7f2b4c5d6e9a0f"
         *     }
         */
        ProviderKeySet: {
            apiKey: string;
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "provider": "deepgram",
         *       "result": "valid",
         *       "vendorStatus": 200,
         *       "message": "deepgram accepted the key.",
         *       "testedAt": "2025-06-02T15:20:45.000Z"
         *     }
         */
        ProviderKeyTested: {
            /** @enum {string} */
            provider: "openai" | "anthropic" | "google" | "deepgram" | "assemblyai" | "speechmatics" | "elevenlabs" | "cartesia";
            /** @enum {string} */
            result: "valid" | "invalid" | "unreachable";
            vendorStatus?: number;
            message: string;
            /** Format: date-time */
            testedAt: string;
        };
        /**
         * @example {
         *       "url": "https://voice-agents-recordings.s3.us-east-1.amazonaws.com/recordings/ws_01JWRF848R3JVSZ7EBQE8EMWFG/call_01JWRFH97RNSQ4B7JD31A2QE39.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=3b1f0c9e",
         *       "expiresAt": "2025-06-02T14:18:11.000Z"
         *     }
         */
        RecordingUrl: {
            url: string;
            /** Format: date-time */
            expiresAt: string;
        };
        /**
         * @example {
         *       "text": "One moment, I am checking that for you.",
         *       "mode": "queue"
         *     }
         */
        SayRequest: {
            text: string;
            /**
             * @description Default: `"queue"`.
             * @enum {string}
             */
            mode?: "interrupt" | "queue";
        };
        /**
         * @example {
         *       "simulated": true,
         *       "notice": {
         *         "parts": [
         *           {
         *             "capability": "llm",
         *             "vendor": "openai",
         *             "keyVariable": "OPENAI_API_KEY"
         *           },
         *           {
         *             "capability": "tts",
         *             "vendor": "elevenlabs",
         *             "keyVariable": "ELEVENLABS_API_KEY"
         *           }
         *         ],
         *         "message": "Simulated: the language model (OpenAI) and the voice (ElevenLabs) are local stand-ins. The model repeats back what it is told and the voice is a tone. To make them real, set OPENAI_API_KEY and ELEVENLABS_API_KEY where the platform runs (npm start: in its environment) and restart it."
         *       }
         *     }
         */
        StandInsView: {
            simulated: boolean;
            notice?: {
                parts: {
                    /**
                     * @description `stt` speech recognition, `llm` the language model, `tts` the voice, `telephony` phone calls.
                     * @enum {string}
                     */
                    capability: "stt" | "llm" | "tts" | "telephony";
                    /** @description The vendor the agent names (`deepgram`, `openai`, `twilio`, ...). */
                    vendor: string;
                    /** @description The environment variable whose real key switches this vendor to its real service. */
                    keyVariable: string;
                }[];
                /** @description What is simulated and how to make it real, one paragraph to show as is. */
                message: string;
            };
        };
        /**
         * @example {
         *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
         *       "name": "check_order_status",
         *       "type": "http",
         *       "description": "Looks up the delivery status of an order by its number.",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "config": {
         *         "method": "GET",
         *         "url": "https://api.example.com/orders/{order_id}/status",
         *         "headers": {
         *           "Authorization": "********"
         *         }
         *       },
         *       "parameters": [
         *         {
         *           "name": "order_id",
         *           "description": "The order number the caller reads out, e.g. 10023",
         *           "required": true
         *         }
         *       ],
         *       "updatedAt": "2025-06-02T15:20:45.000Z"
         *     }
         */
        Tool: {
            _id: string;
            name: string;
            /** @enum {string} */
            type: "http" | "integration" | "transfer" | "mcp";
            description: string;
            workspaceId: string;
            templateId?: string;
            /** Format: date-time */
            createdAt: string;
            config?: {
                /** @enum {string} */
                method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                url?: string;
                headers?: {
                    [key: string]: string;
                };
                body?: string | {
                    [key: string]: unknown;
                } | unknown[];
                settings?: {
                    [key: string]: string | number;
                };
                allowed_tools?: string[];
            };
            parameters: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            /** @description The tools the MCP server listed at the last save or refresh (mcp tools only). */
            mcp?: {
                /** @enum {string} */
                transport: "streamable_http" | "sse";
                tools: {
                    name: string;
                    description: string;
                    inputSchema: {
                        [key: string]: unknown;
                    };
                }[];
                refreshedAt: string;
            };
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "name": "check_order_status",
         *       "type": "http",
         *       "description": "Looks up the delivery status of an order by its number.",
         *       "config": {
         *         "method": "GET",
         *         "url": "https://api.example.com/orders/{order_id}/status",
         *         "headers": {
         *           "Authorization": "Bearer sk_test_51Hc2xV0a9Q7"
         *         }
         *       },
         *       "parameters": [
         *         {
         *           "name": "order_id",
         *           "description": "The order number the caller reads out, e.g. 10023",
         *           "required": true
         *         }
         *       ]
         *     }
         */
        ToolCreate: components["schemas"]["HttpToolCreate"] | components["schemas"]["IntegrationToolCreate"] | components["schemas"]["TransferToolCreate"] | components["schemas"]["McpToolCreate"];
        /**
         * @example {
         *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
         *       "name": "check_order_status",
         *       "type": "http",
         *       "description": "Looks up the delivery status of an order by its number.",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "config": {
         *         "method": "GET",
         *         "url": "https://api.example.com/orders/{order_id}/status"
         *       }
         *     }
         */
        ToolCreated: {
            _id: string;
            name: string;
            /** @enum {string} */
            type: "http" | "integration" | "transfer" | "mcp";
            description: string;
            workspaceId: string;
            templateId?: string;
            /** Format: date-time */
            createdAt: string;
            config?: {
                /** @enum {string} */
                method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                url?: string;
                body?: string | {
                    [key: string]: unknown;
                } | unknown[];
                settings?: {
                    [key: string]: string | number;
                };
                allowed_tools?: string[];
            };
            /** @description The tools the MCP server listed at the last save or refresh (mcp tools only). */
            mcp?: {
                /** @enum {string} */
                transport: "streamable_http" | "sse";
                tools: {
                    name: string;
                    description: string;
                    inputSchema: {
                        [key: string]: unknown;
                    };
                }[];
                refreshedAt: string;
            };
        };
        /**
         * @example {
         *       "_id": "tool_01JWRFBSERD1BS3W9VV6RZM94Y",
         *       "name": "check_order_status",
         *       "type": "http",
         *       "description": "Looks up the delivery status of an order by its number.",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z"
         *     }
         */
        ToolListItem: {
            _id: string;
            name: string;
            /** @enum {string} */
            type: "http" | "integration" | "transfer" | "mcp";
            description: string;
            workspaceId: string;
            templateId?: string;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @example {
         *       "templateId": "google_calendar.create_event",
         *       "title": "Google Calendar: create an event",
         *       "description": "Adds an event to a Google Calendar (events.insert), optionally inviting the caller.",
         *       "docsUrl": "https://developers.google.com/calendar/api/v3/reference/events/insert",
         *       "method": "POST",
         *       "url": "https://www.googleapis.com/calendar/v3/calendars/{calendar_id}/events",
         *       "requiredHeaders": [
         *         "Authorization"
         *       ],
         *       "contentType": "application/json",
         *       "body": {
         *         "summary": "{summary}",
         *         "description": "{details}",
         *         "start": {
         *           "dateTime": "{start}",
         *           "timeZone": "{time_zone}"
         *         },
         *         "end": {
         *           "dateTime": "{end}",
         *           "timeZone": "{time_zone}"
         *         },
         *         "attendees": [
         *           {
         *             "email": "{attendee_email}"
         *           }
         *         ]
         *       },
         *       "settings": [
         *         {
         *           "name": "calendar_id",
         *           "description": "Calendar identifier, or `primary` for the signed-in user",
         *           "type": "string",
         *           "pattern": "^(?!\\.{1,2}$)[^\\s/?#\\\\]{1,254}$",
         *           "example": "primary"
         *         }
         *       ],
         *       "parameters": [
         *         {
         *           "name": "summary",
         *           "description": "Title of the event",
         *           "required": true
         *         },
         *         {
         *           "name": "start",
         *           "description": "Start time, RFC 3339 with offset, for example 2026-05-28T09:00:00-07:00",
         *           "required": true
         *         },
         *         {
         *           "name": "end",
         *           "description": "End time, RFC 3339 with offset",
         *           "required": true
         *         },
         *         {
         *           "name": "time_zone",
         *           "description": "IANA time zone of the event, for example America/Los_Angeles",
         *           "required": true
         *         },
         *         {
         *           "name": "details",
         *           "description": "Notes for the event description",
         *           "required": false
         *         },
         *         {
         *           "name": "attendee_email",
         *           "description": "The person's email address, to send them an invitation",
         *           "required": false
         *         }
         *       ],
         *       "parametersFromTool": false
         *     }
         */
        ToolTemplate: {
            templateId: string;
            title: string;
            description: string;
            docsUrl: string;
            /** @enum {string} */
            method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
            url?: string;
            requiredHeaders: string[];
            fixedHeaders?: {
                [key: string]: string;
            };
            contentType: string;
            body?: {
                [key: string]: unknown;
            };
            settings: {
                name: string;
                description: string;
                /** @enum {string} */
                type: "string" | "integer";
                pattern?: string;
                example: string | number;
            }[];
            parameters: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            parametersFromTool: boolean;
        };
        /**
         * @example {
         *       "description": "Looks up the delivery status and expected date of an order.",
         *       "config": {
         *         "headers": {
         *           "Authorization": "********"
         *         }
         *       }
         *     }
         */
        ToolUpdate: {
            name?: string;
            /** @enum {string} */
            type?: "http" | "integration" | "transfer" | "mcp";
            description?: string;
            templateId?: string;
            config?: {
                /** @enum {string} */
                method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                url?: string;
                headers?: {
                    [key: string]: string;
                };
                body?: string | {
                    [key: string]: unknown;
                } | unknown[];
                settings?: {
                    [key: string]: string | number;
                };
                /** @description null: back to every tool the server lists */
                allowed_tools?: string[] | null;
            };
            parameters?: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            workspaceId?: string;
        };
        /**
         * @example {
         *       "to": "+14155550142",
         *       "mode": "warm",
         *       "summary": "Ada wants to move her appointment."
         *     }
         */
        TransferRequest: {
            to: string;
            /**
             * @description Default: `"cold"`.
             * @enum {string}
             */
            mode?: "cold" | "warm";
            summary?: string;
        };
        /**
         * @description Hands the caller over to config.url, a tel: number or sip: URI.
         * @example {
         *       "name": "transfer_to_sales",
         *       "type": "transfer",
         *       "description": "Hands the caller over to the sales team when they ask for a quote.",
         *       "config": {
         *         "url": "tel:+14155550123"
         *       }
         *     }
         */
        TransferToolCreate: {
            name: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "transfer";
            description: string;
            templateId?: string;
            config: {
                /** @enum {string} */
                method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                /** @description tel:+<E.164 number> or sip:<user>@<host> */
                url: string;
                headers?: {
                    [key: string]: string;
                };
                body?: string | {
                    [key: string]: unknown;
                } | unknown[];
                settings?: {
                    [key: string]: string | number;
                };
                allowed_tools?: string[];
            };
            /** @description Default: `[]`. */
            parameters?: {
                name: string;
                description: string;
                required: boolean;
                /** @enum {string} */
                type?: "string" | "number" | "integer" | "boolean";
                enum?: (string | number | boolean)[];
            }[];
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "id": "21m00Tcm4TlvDq8ikWAM",
         *       "name": "Rachel",
         *       "language": "en",
         *       "gender": "female",
         *       "previewUrl": "https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3"
         *     }
         */
        Voice: {
            id: string;
            name: string;
            language: string | null;
            gender: string | null;
            previewUrl: string | null;
        };
        /**
         * @example {
         *       "provider": "elevenlabs",
         *       "data": [
         *         {
         *           "id": "21m00Tcm4TlvDq8ikWAM",
         *           "name": "Rachel",
         *           "language": "en",
         *           "gender": "female",
         *           "previewUrl": "https://storage.googleapis.com/eleven-public-prod/premade/voices/21m00Tcm4TlvDq8ikWAM/preview.mp3"
         *         },
         *         {
         *           "id": "pNInz6obpgDQGcFmaJgB",
         *           "name": "Adam",
         *           "language": "en",
         *           "gender": "male",
         *           "previewUrl": null
         *         }
         *       ]
         *     }
         */
        Voices: {
            /** @enum {string} */
            provider: "elevenlabs" | "deepgram" | "cartesia";
            data: components["schemas"]["Voice"][];
        };
        /**
         * @example {
         *       "_id": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M",
         *       "endpointId": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
         *       "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
         *       "eventType": "call.ended",
         *       "status": "succeeded",
         *       "attempts": [
         *         {
         *           "at": "2025-06-02T14:04:47.120Z",
         *           "status": 503,
         *           "latencyMs": 212,
         *           "responseExcerpt": "{\"error\":\"maintenance\"}"
         *         },
         *         {
         *           "at": "2025-06-02T14:04:52.701Z",
         *           "status": 200,
         *           "latencyMs": 87,
         *           "responseExcerpt": "{\"ok\":true}"
         *         }
         *       ],
         *       "createdAt": "2025-06-02T14:04:47.090Z",
         *       "updatedAt": "2025-06-02T14:04:52.788Z"
         *     }
         */
        WebhookDelivery: {
            _id: string;
            endpointId: string;
            eventId: string;
            /** @enum {string} */
            eventType: "call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping";
            /** @enum {string} */
            status: "pending" | "retrying" | "succeeded" | "failed";
            attempts: {
                /** Format: date-time */
                at: string;
                status?: number;
                error?: string;
                latencyMs: number;
                responseExcerpt?: string;
            }[];
            /** Format: date-time */
            nextAttemptAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "_id": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
         *       "url": "https://crm.example.com/hooks/voice-agents",
         *       "description": "CRM: log every call and its outcome",
         *       "eventTypes": [
         *         "call.ended",
         *         "call.analyzed"
         *       ],
         *       "status": "enabled",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T15:20:45.000Z"
         *     }
         */
        WebhookEndpoint: {
            _id: string;
            url: string;
            description: string;
            eventTypes: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            disabledReason?: string;
            /** Format: date-time */
            previousSecretExpiresAt?: string;
            /** Format: date-time */
            failingSince?: string;
            workspaceId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "url": "https://crm.example.com/hooks/voice-agents",
         *       "description": "CRM: log every call and its outcome",
         *       "eventTypes": [
         *         "call.ended",
         *         "call.analyzed"
         *       ]
         *     }
         */
        WebhookEndpointCreate: {
            url: string;
            /** @description Default: `""`. */
            description?: string;
            eventTypes?: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
            /** @description Optional: the API key's workspace when left out; when sent it must be that workspace (403 otherwise). */
            workspaceId?: string;
        };
        /**
         * @example {
         *       "_id": "whe_01JWRFN6ERB2Q5TV3C8XW0H7JD",
         *       "url": "https://crm.example.com/hooks/voice-agents",
         *       "description": "CRM: log every call and its outcome",
         *       "eventTypes": [
         *         "call.ended",
         *         "call.analyzed"
         *       ],
         *       "status": "enabled",
         *       "workspaceId": "ws_01JWRF848R3JVSZ7EBQE8EMWFG",
         *       "createdAt": "2025-06-02T14:03:11.000Z",
         *       "updatedAt": "2025-06-02T14:03:11.000Z",
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3qkqTMvdaMw="
         *     }
         */
        WebhookEndpointCreated: {
            _id: string;
            url: string;
            description: string;
            eventTypes: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            disabledReason?: string;
            /** Format: date-time */
            previousSecretExpiresAt?: string;
            /** Format: date-time */
            failingSince?: string;
            workspaceId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            secret: string;
        };
        /**
         * @example {
         *       "eventTypes": [
         *         "call.ended",
         *         "call.analyzed",
         *         "call.transfer"
         *       ]
         *     }
         */
        WebhookEndpointUpdate: {
            url?: string;
            description?: string;
            eventTypes?: ("call.started" | "call.ended" | "call.analyzed" | "call.transfer" | "call.handoff" | "contacts.import.completed" | "phone_number.released" | "credits.low" | "webhook.disabled" | "test_run.completed" | "test.ping")[];
            enabled?: boolean;
            workspaceId?: string;
        };
        /**
         * @example {
         *       "since": "2025-06-02T00:00:00Z",
         *       "until": "2025-06-02T23:59:59Z"
         *     }
         */
        WebhookReplay: {
            eventId?: string;
            since?: string;
            until?: string;
            workspaceId?: string;
        };
        /**
         * @example {
         *       "replayed": 1,
         *       "deliveryIds": [
         *         "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M"
         *       ],
         *       "truncated": false
         *     }
         */
        WebhookReplayResult: {
            replayed: number;
            deliveryIds: string[];
            truncated: boolean;
            /** Format: date-time */
            nextSince?: string;
        };
        /**
         * @example {
         *       "secret": "whsec_3q2+7wAAAAB0ZXN0LXNlY3JldC1yb3RhdGVkLWtleS0wMQ==",
         *       "previousSecretExpiresAt": "2025-06-03T15:20:45.000Z"
         *     }
         */
        WebhookSecretRotated: {
            secret: string;
            /** Format: date-time */
            previousSecretExpiresAt: string;
        };
        /**
         * @example {
         *       "creditsLowThreshold": 20
         *     }
         */
        WebhookSettings: {
            creditsLowThreshold: number | null;
        };
        /**
         * @example {
         *       "creditsLowThreshold": 20
         *     }
         */
        WebhookSettingsUpdate: {
            creditsLowThreshold: number | null;
            workspaceId?: string;
        };
        /**
         * @example {
         *       "eventId": "evt_01JWRFQ0ZR6M4KQ8YB2D9NWS5E",
         *       "deliveryId": "dlv_01JWRFRVJR3H7XGA5P1QK8ZC6M"
         *     }
         */
        WebhookTestResult: {
            eventId: string;
            deliveryId: string;
        };
    };
    responses: {
        /** @description Validation failed (validation_failed), malformed JSON (invalid_json) or a __proto__ key (forbidden_key). */
        BadRequest: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "validation_failed",
                 *         "message": "The request did not pass validation.",
                 *         "details": [
                 *           {
                 *             "field": "body",
                 *             "message": "Unrecognized key: \"colour\"",
                 *             "keys": [
                 *               "colour"
                 *             ]
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The x-api-key header is missing, unknown or revoked (unauthorized). */
        Unauthorized: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "unauthorized",
                 *         "message": "A valid x-api-key header is required.",
                 *         "details": []
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The workspace has insufficient credits (insufficient_credits): a call needs its longest possible duration in credits up front (10 at the default pricing; docs/calls.md). */
        PaymentRequired: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "insufficient_credits",
                 *         "message": "The workspace has insufficient credits.",
                 *         "details": {
                 *           "required": 10,
                 *           "available": 2.5
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A workspaceId in the query or body is not the API key's workspace (forbidden); on /auth, a request not from the dashboard page (csrf_refused). */
        Forbidden: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "forbidden",
                 *         "message": "This API key cannot act on that workspace.",
                 *         "details": []
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such record in this workspace (not_found); records of other workspaces are reported the same way. */
        NotFound: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "not_found",
                 *         "message": "Agent was not found.",
                 *         "details": []
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The change conflicts with existing data, e.g. a phone number already in use (phone_number_taken), or a phone call to a number on the workspace's do-not-call list (do_not_call: details name the number and the history record of the refusal; send consentedCall: true for a call the person agreed to). */
        Conflict: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "phone_number_taken",
                 *         "message": "A contact with phone number +14155552671 already exists.",
                 *         "details": [
                 *           {
                 *             "field": "phoneNumber",
                 *             "message": "already used by another contact in this workspace"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The resource was used up, e.g. a meeting link already opened. */
        Gone: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body exceeds its limit (payload_too_large): 1048576 bytes for JSON. */
        PayloadTooLarge: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "payload_too_large",
                 *         "message": "The request body exceeds 1048576 bytes.",
                 *         "details": [
                 *           {
                 *             "message": "limit is 1048576 bytes"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is not multipart/form-data (uploads) or application/json (/auth) (unsupported_media_type). */
        UnsupportedMediaType: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "unsupported_media_type",
                 *         "message": "Send the upload as multipart/form-data with the fields file and workspaceId (and optionally defaultCountry).",
                 *         "details": [
                 *           {
                 *             "field": "content-type",
                 *             "message": "expected multipart/form-data"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Well-formed but not usable: an Idempotency-Key reused with another body (idempotency_key_reused), an agent that is not the workspace's (unknown_agent), telephony credentials the provider refused or a number not in that account (telephony_credentials_invalid, number_not_in_account). */
        UnprocessableContent: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "idempotency_key_reused",
                 *         "message": "This Idempotency-Key was already used with a different request body.",
                 *         "details": [
                 *           {
                 *             "field": "Idempotency-Key",
                 *             "message": "send a new key for a new request"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests (rate_limited): this API key's quota, or the route's own limit (per source IP on public routes; webhook replays per endpoint and workspace, and their hourly delivery budget; docs/api.md, Rate limits); wait Retry-After seconds. */
        TooManyRequests: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "rate_limited",
                 *         "message": "Too many requests; retry after 12 seconds.",
                 *         "details": []
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Our fault (internal_error): the message says nothing more; details carry the request id to quote. */
        InternalServerError: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "internal_error",
                 *         "message": "Something went wrong on our side. Try again; if it persists, quote the request id.",
                 *         "details": [
                 *           {
                 *             "requestId": "0b4a5c62-3f1e-4d1a-9a57-1d2c3e4f5a6b"
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Our data store was busy or unreachable for the whole request (service_unavailable): nothing was changed; send the same request again after Retry-After seconds. */
        ServiceUnavailable: {
            headers: {
                "x-request-id": components["headers"]["RequestId"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "service_unavailable",
                 *         "message": "We could not reach our data store in time; nothing was changed. Retry after 2 seconds.",
                 *         "details": []
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists but not with this method (method_not_allowed); `Allow` lists the methods it takes. Local server only: API Gateway answers 404. */
        MethodNotAllowed: {
            headers: {
                /** @description The methods this path takes, e.g. `GET, POST`. */
                Allow?: string;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "method_not_allowed",
                 *         "message": "PUT is not allowed here; use POST, GET.",
                 *         "details": []
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The id of this request: quote it when asking about a failure (a 500's details carry it too). */
        RequestId: string;
        /** @description Seconds to wait before retrying (RFC 9110). */
        RetryAfter: number;
        /** @description The quota left in the current window and the seconds until it resets, e.g. `"key";r=199;t=10` (draft-ietf-httpapi-ratelimit-headers). */
        RateLimit: string;
        /** @description The quota and window of the policy that applied, e.g. `"key";q=200;w=10` (draft-ietf-httpapi-ratelimit-headers). */
        RateLimitPolicy: string;
    };
    pathItems: never;
}
