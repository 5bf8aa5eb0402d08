// Generated from the OpenAPI document (lib/http/openapi.ts) by `npm run build:sdk`; do not edit.

/**
 * @example {
 *       "maxTurns": 6
 *     }
 */
export type AgentTestScenarioUpdate<S extends Record<"AgentTestVoiceConditions", unknown>> = {
    name?: string;
    suite?: string;
    description?: string;
    /** @enum {string} */
    channel?: "chat" | "voice";
    /** @description replaces them; `{}` for a clean line */
    conditions?: S["AgentTestVoiceConditions"];
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
