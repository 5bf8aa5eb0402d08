import * as z from 'zod';
import { AgentAnalysis } from './analysis.js';
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
    /** Post-call analysis (docs/webhooks.md); none unless given. */
    analysis: AgentAnalysis.optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'AgentCreate' });
export type AgentCreate = z.infer<typeof AgentCreate>;

/** PATCH /api/agents/{id} body: any create field except the workspace; at least one. */
export const AgentUpdate = z
  .strictObject({
    ...Object.fromEntries(Object.entries(agentFields).map(([k, v]) => [k, v.optional()])),
    /** Replaces the whole section; null removes it. */
    analysis: AgentAnalysis.nullable().optional(),
    workspaceId: WorkspaceIdField.optional(),
  } as { [K in keyof typeof agentFields]: z.ZodOptional<(typeof agentFields)[K]> } & {
    analysis: z.ZodOptional<z.ZodNullable<typeof AgentAnalysis>>;
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
  /** null once removed by an update. */
  analysis?: AgentAnalysis | null;
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
    analysis: AgentAnalysis.nullable().optional(),
  })
  .meta({ id: 'AgentCreated' });
export const AgentView = z
  .object({
    ...AgentCreated.shape,
    tts_voice_id: z.string(),
    ambience_enabled: z.boolean(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'Agent' });
