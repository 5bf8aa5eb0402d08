import * as z from 'zod';
import { BodyWorkspaceId, Name, Timestamp, WorkspaceIdField } from './common.js';

/** Provider identifiers an agent may name; the voice pipeline has an adapter for each. */
export const LLM_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
export const TTS_PROVIDERS = ['elevenlabs', 'deepgram', 'cartesia'] as const;
export const STT_PROVIDERS = ['deepgram', 'assemblyai', 'speechmatics', 'openai'] as const;

/** The voice used when an agent names none (documented in docs/api.md). */
export const DEFAULT_VOICE: Record<(typeof TTS_PROVIDERS)[number], string> = {
  elevenlabs: '21m00Tcm4TlvDq8ikWAM',
  deepgram: 'aura-2-thalia-en',
  cartesia: 'a0e99841-438c-4a64-b679-ae501e7d6091',
};

/**
 * How the agent takes being talked over (docs/api.md, "Interruptions"). Every field is optional; a
 * missing one takes the default. Bounds keep a typo from making an agent that can never be interrupted
 * (minimum speech over 5 s) or that never resumes.
 */
export const InterruptionConfig = z
  .strictObject({
    /** Caller speech needed before the agent pauses or stops, ms. Default 500. */
    min_duration_ms: z.number().int().min(0).max(5_000).optional(),
    /** Words (backchannels excluded) needed before the agent stops. Default 2. */
    min_words: z.number().int().min(0).max(10).optional(),
    /** Silence after speech without words before a paused agent resumes, ms. Default 1500. */
    false_interruption_timeout_ms: z.number().int().min(100).max(10_000).optional(),
    /** Pause on speech and resume when it had no words (default true); false stops only on words. */
    resume_false_interruption: z.boolean().optional(),
    /** Words that acknowledge without interrupting ("uh-huh"); replaces the English default list. */
    backchannels: z.array(z.string().trim().toLowerCase().min(1).max(40)).max(100).optional(),
  });
export type InterruptionConfig = z.infer<typeof InterruptionConfig>;

/** What the agent does when the caller goes quiet (docs/api.md, "Silence"). */
export const SilenceConfig = z
  .strictObject({
    /** Silence before the agent re-prompts, ms. Default 10000. */
    reprompt_after_ms: z.number().int().min(2_000).max(120_000).optional(),
    /** Re-prompts before the call ends as silence_timeout; 0 never re-prompts. Default 2. */
    max_reprompts: z.number().int().min(0).max(5).optional(),
    /** What the agent says, in the agent's language. Default "Are you still there?". */
    reprompt_message: z.string().trim().min(1).max(300).optional(),
  });
export type SilenceConfig = z.infer<typeof SilenceConfig>;

/**
 * Other providers to switch to when the agent's own stays down mid-call (docs/api.md, "Fallback"). Only
 * speech synthesis so far: an ordered list of voices, tried in turn.
 */
export const FallbackConfig = z.strictObject({
  tts: z
    .array(
      z.strictObject({
        provider: z.enum(TTS_PROVIDERS),
        /** Default: the provider's default voice. */
        voice_id: z.string().trim().min(1).max(200).optional(),
      }),
    )
    .min(1)
    .max(3)
    .optional(),
});
export type FallbackConfig = z.infer<typeof FallbackConfig>;

const agentFields = {
  name: Name,
  llm_provider: z.enum(LLM_PROVIDERS),
  llm_model: z.string().trim().min(1).max(100),
  tts_provider: z.enum(TTS_PROVIDERS),
  tts_voice_id: z.string().trim().min(1).max(200),
  stt_provider: z.enum(STT_PROVIDERS),
  system_prompt: z.string().max(50_000),
  first_message: z.string().max(2_000),
  recording_enabled: z.boolean(),
  ambience_enabled: z.boolean(),
  interruption: InterruptionConfig,
  silence: SilenceConfig,
  fallback: FallbackConfig,
};

/** POST /api/agents body. Unknown fields are rejected so a typo never silently does nothing. */
export const AgentCreate = z
  .strictObject({
    ...agentFields,
    tts_voice_id: agentFields.tts_voice_id.optional(),
    system_prompt: agentFields.system_prompt.default(''),
    first_message: agentFields.first_message.default(''),
    recording_enabled: agentFields.recording_enabled.default(false),
    ambience_enabled: agentFields.ambience_enabled.default(false),
    interruption: agentFields.interruption.optional(),
    silence: agentFields.silence.optional(),
    fallback: agentFields.fallback.optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'AgentCreate' });
export type AgentCreate = z.infer<typeof AgentCreate>;

/** PATCH /api/agents/{id} body: any create field except the workspace; at least one. */
export const AgentUpdate = z
  .strictObject({
    ...Object.fromEntries(Object.entries(agentFields).map(([k, v]) => [k, v.optional()])),
    workspaceId: WorkspaceIdField.optional(),
  } as { [K in keyof typeof agentFields]: z.ZodOptional<(typeof agentFields)[K]> } & {
    workspaceId: z.ZodOptional<typeof WorkspaceIdField>;
  })
  .meta({ id: 'AgentUpdate' });
export type AgentUpdate = z.infer<typeof AgentUpdate>;

/** The stored agent. */
export interface Agent {
  _id: string;
  name: string;
  llm_provider: (typeof LLM_PROVIDERS)[number];
  llm_model: string;
  tts_provider: (typeof TTS_PROVIDERS)[number];
  tts_voice_id: string;
  stt_provider: (typeof STT_PROVIDERS)[number];
  system_prompt: string;
  first_message: string;
  recording_enabled: boolean;
  ambience_enabled: boolean;
  /** Absent on agents that never set it: every default applies. */
  interruption?: InterruptionConfig;
  silence?: SilenceConfig;
  fallback?: FallbackConfig;
  workspaceId: string;
  createdAt: string;
  updatedAt: string;
}

const base = {
  _id: z.string(),
  name: z.string(),
  llm_provider: z.enum(LLM_PROVIDERS),
  llm_model: z.string(),
  tts_provider: z.enum(TTS_PROVIDERS),
  stt_provider: z.enum(STT_PROVIDERS),
  workspaceId: z.string(),
  createdAt: Timestamp,
};

/** The fields each operation returns, exactly as API_SPEC.md lists them. */
export const AgentListItem = z.object(base).meta({ id: 'AgentListItem' });
export const AgentCreated = z
  .object({
    ...base,
    system_prompt: z.string(),
    first_message: z.string(),
    recording_enabled: z.boolean(),
  })
  .meta({ id: 'AgentCreated' });
export const AgentView = z
  .object({
    ...AgentCreated.shape,
    tts_voice_id: z.string(),
    ambience_enabled: z.boolean(),
    interruption: InterruptionConfig.optional(),
    silence: SilenceConfig.optional(),
    fallback: FallbackConfig.optional(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'Agent' });
