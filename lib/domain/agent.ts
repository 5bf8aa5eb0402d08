import * as z from 'zod';
import { AmbienceConfig } from './ambience.js';
import { AgentAnalysis } from './analysis.js';
import { Handoff, Handoffs } from './handoff.js';
import { Pronunciations, type Pronunciation } from './pronunciation.js';
import { BodyWorkspaceId, Name, Timestamp, WorkspaceIdField } from './common.js';
import { AgentLanguage, DEFAULT_LANGUAGE } from './languages.js';
import { LLM_PROVIDERS, STT_PROVIDERS, TTS_PROVIDERS, VENDOR_LLM_PROVIDERS } from './providers.js';
import { KNOWLEDGE_BASE_MODES, MAX_AGENT_KNOWLEDGE_BASES, type KnowledgeBaseMode } from './knowledge/schema.js';
import { RealtimeConfig } from './realtime.js';

/** Provider identifiers an agent may name; the voice pipeline has an adapter for each (lib/domain/providers.ts). */
export { LLM_PROVIDERS, STT_PROVIDERS, TTS_PROVIDERS };

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
    /** Words or short phrases that stop the agent at once when a caller turn starts with them ("stop", "hold on"); replaces the default list. */
    stop_words: z.array(z.string().trim().toLowerCase().min(1).max(40)).max(50).optional(),
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
 * When the caller's turn is over (docs/api.md, "turn_taking"; docs/voice-pipeline.md, "Turn-taking"): a
 * fragment that stops on a word a sentence cannot end on ("a table for", "and, um") waits for more; and how
 * long the agent may then stay silent before its answer starts ("The first-token budget").
 */
export const TurnTakingConfig = z
  .strictObject({
    /** Extra wait after an unfinished-looking fragment before the agent answers it, ms; 0 never waits. Default 2000. */
    unfinished_wait_ms: z.number().int().min(0).max(10_000).optional(),
    /** Words a sentence does not end on (conjunctions, articles, prepositions, fillers); replaces the English default list. */
    continuation_words: z.array(z.string().trim().toLowerCase().min(1).max(40)).max(200).optional(),
    /** Start the model on words that look complete, before the recognizer confirms the turn; kept unspoken until then. Default true. */
    preemptive_generation: z.boolean().optional(),
    /**
     * Silence allowed while the model has not started its answer, ms: then a filler is said and another
     * request (the fallback model) races the silent one. Default 2000; under 500 most answers would race.
     */
    first_token_budget_ms: z.number().int().min(500).max(10_000).optional(),
  });
export type TurnTakingConfig = z.infer<typeof TurnTakingConfig>;
/** Answering-machine detection per agent (docs/telephony.md, Voicemail): Twilio's asynchronous AMD. */
export const VOICEMAIL_DETECTION = ['off', 'detect', 'detect_message_end'] as const;
/** What the call does when a machine answered. */
export const VOICEMAIL_ACTIONS = ['hang_up', 'leave_message'] as const;

/**
 * The longest a call may last, per agent. The platform's `CALL_MAX_DURATION_SECONDS` (600 s) is the
 * default; an hour is the cap, the streaming task's own bound (docs/deploy.md). Under 30 s a call cannot
 * even finish its greeting and closing line.
 */
export const MAX_DURATION_RANGE = { min: 30, max: 3_600 } as const;

export const TRANSFER_MODES = ['cold', 'warm'] as const;

/** The keys of a phone keypad. */
export const DTMF_KEY = z.string().regex(/^[0-9*#]$/, 'one keypad key: 0-9, * or #');

/** A transfer destination: an E.164 number or a SIP URI (docs/telephony.md, Transfer). */
export const TransferDestination = z
  .string()
  .trim()
  .max(256)
  .regex(/^(\+[1-9]\d{6,14}|sips?:[^\s<>"'&]+@[^\s<>"'&]+)$/, 'an E.164 number (+14155550142) or a SIP URI (sip:desk@example.com)');

/** What a key pressed by the caller does at once, without asking the model. */
export const DtmfShortcut = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('transfer'),
    destination: TransferDestination,
    /** Cold: moved at once. Warm: the target hears a summary first and may decline (docs/telephony.md). */
    mode: z.enum(TRANSFER_MODES).default('cold'),
  }),
  z.strictObject({ action: z.literal('end_call') }),
]);
export type DtmfShortcut = z.infer<typeof DtmfShortcut>;

/** 1-3 entries, tried in order: one more vendor covers an outage; more only adds silence while each fails. */
const fallbackList = <T extends z.ZodType>(entry: T) => z.array(entry).min(1).max(3).optional();

/**
 * Other providers to switch to when the agent's own stays down mid-call (docs/api.md, "Fallback"): ordered
 * lists of voices, transcribers and models, tried in turn.
 */
export const FallbackConfig = z.strictObject({
  tts: fallbackList(
    z.strictObject({
      provider: z.enum(TTS_PROVIDERS),
      /** Default: the provider's default voice. */
      voice_id: z.string().trim().min(1).max(200).optional(),
    }),
  ),
  /** Transcribers: same audio format as the primary, so the buffered caller audio can be replayed to them. */
  stt: fallbackList(z.strictObject({ provider: z.enum(STT_PROVIDERS) })),
  /**
   * Models for a turn the agent's own model failed twice, or left silent past `turn_taking.first_token_budget_ms`
   * (docs/voice-pipeline.md, "Vendor failures", "The first-token budget"). Vendors
   * only: an agent has one custom endpoint, and the fallback is what answers while that endpoint is down.
   */
  llm: fallbackList(z.strictObject({ provider: z.enum(VENDOR_LLM_PROVIDERS), model: z.string().trim().min(1).max(100) })),
});
export type FallbackConfig = z.infer<typeof FallbackConfig>;

/** At most this many tools per agent: a model choosing among more picks worse, and each spec costs prompt tokens. */
export const MAX_AGENT_TOOLS = 50;

/**
 * The workspace tools an agent is offered (docs/api.md, "tool_ids"). Absent or null: every tool of the
 * workspace. The ids are checked against the key's workspace when the agent is saved (lib/services/agents.ts).
 */
export const AgentToolIds = z
  .array(z.string().trim().min(1).max(100))
  .max(MAX_AGENT_TOOLS)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice` });
      seen.add(id);
    });
  });

/**
 * The knowledge bases an agent answers from (docs/knowledge.md, "In a conversation"); checked against the
 * key's workspace when the agent is saved (lib/services/agents.ts).
 */
export const AgentKnowledgeBaseIds = z
  .array(z.string().trim().min(1).max(64))
  .max(MAX_AGENT_KNOWLEDGE_BASES)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice` });
      seen.add(id);
    });
  });

/**
 * How a call opens: the first message at once (default); the first message as the answer to the caller's
 * first words, silence until then; or a greeting the model writes from the prompt and variables.
 */
export const FIRST_MESSAGE_MODES = ['agent_speaks_first', 'wait_for_caller', 'model_generated'] as const;
export type FirstMessageMode = (typeof FIRST_MESSAGE_MODES)[number];

/** The greeting fields' values for agents stored before they existed (and omitted on create). */
export const GREETING_DEFAULTS = { first_message_mode: 'agent_speaks_first', first_message_interruptible: false } as const;

const agentFields = {
  name: Name,
  llm_provider: z.enum(LLM_PROVIDERS),
  llm_model: z.string().trim().min(1).max(100),
  /**
   * `custom` only: the base URL of an OpenAI-compatible Chat Completions API (`https://host/v1`; the request
   * goes to `<base>/chat/completions`). Checked at save and at every request (lib/domain/agent-llm.ts).
   */
  llm_base_url: z.string().trim().min(1).max(2_000),
  /** `custom` only, write-only: sent as `Authorization: Bearer <key>`; reads show `********` when one is set. */
  llm_api_key: z
    .string()
    .min(1)
    .max(4_096)
    .regex(/^[\x21-\x7e]+$/, 'an API key is printable ASCII without spaces'),
  tts_provider: z.enum(TTS_PROVIDERS),
  tts_voice_id: z.string().trim().min(1).max(200),
  stt_provider: z.enum(STT_PROVIDERS),
  /** BCP-47 or `multi` (lib/domain/languages.ts): what the recognizer, the voice, the model and the fixed lines use. */
  language: AgentLanguage,
  system_prompt: z.string().max(50_000),
  first_message: z.string().max(2_000),
  first_message_mode: z.enum(FIRST_MESSAGE_MODES),
  /** False (default): the caller's words during the greeting are heard, and answered after it. */
  first_message_interruptible: z.boolean(),
  recording_enabled: z.boolean(),
  ambience_enabled: z.boolean(),
  /** The bed `ambience_enabled` plays (docs/api.md, "Ambience"); absent: a quiet office. */
  ambience: AmbienceConfig,
  /** Words the voice says another way (docs/api.md, "Pronunciations"); the transcript keeps the written word. */
  pronunciations: Pronunciations,
  interruption: InterruptionConfig,
  silence: SilenceConfig,
  turn_taking: TurnTakingConfig,
  voicemail_detection: z.enum(VOICEMAIL_DETECTION),
  voicemail_action: z.enum(VOICEMAIL_ACTIONS),
  /** Left after the beep when `voicemail_action` is `leave_message`; `{{contact variables}}` are filled. */
  voicemail_message: z.string().max(1_000),
  max_duration_seconds: z.number().int().min(MAX_DURATION_RANGE.min).max(MAX_DURATION_RANGE.max),
  /** Keypad shortcuts, by key: `{"0": {"action": "transfer", "destination": "+14155550142"}}`. */
  dtmf_shortcuts: z.record(DTMF_KEY, DtmfShortcut),
  /** How the agent's transfer tools hand the caller over: at once, or after the target accepted. */
  transfer_mode: z.enum(TRANSFER_MODES),
  fallback: FallbackConfig,
  /** Null (or absent): every tool of the workspace; a list: exactly those tools. */
  tool_ids: AgentToolIds.nullable(),
  /** The knowledge bases the agent answers from; empty or absent: none. */
  knowledge_base_ids: AgentKnowledgeBaseIds,
  /** `auto` (default): every caller turn retrieves before the reply; `tool`: the model calls search_knowledge when it decides to. */
  knowledge_base_mode: z.enum(KNOWLEDGE_BASE_MODES),
  /** Agents of the workspace this one may hand the conversation to (docs/handoffs.md); `[]` removes them. */
  handoffs: Handoffs,
  /** A speech-to-speech model answers calls (docs/realtime.md); the cascaded fields are its fallback. */
  realtime: RealtimeConfig,
};

/** The call-control fields' values for agents stored before they existed (and omitted on create). */
export const CALL_CONTROL_DEFAULTS = {
  voicemail_detection: 'off',
  voicemail_action: 'hang_up',
  voicemail_message: '',
  dtmf_shortcuts: {},
  transfer_mode: 'cold',
} as const satisfies Partial<Record<keyof typeof agentFields, unknown>>;

/** POST /api/agents body. Unknown fields are rejected so a typo never silently does nothing. */
export const AgentCreate = z
  .strictObject({
    ...agentFields,
    tts_voice_id: agentFields.tts_voice_id.optional(),
    llm_base_url: agentFields.llm_base_url.optional(),
    llm_api_key: agentFields.llm_api_key.optional(),
    language: agentFields.language.default(DEFAULT_LANGUAGE),
    system_prompt: agentFields.system_prompt.default(''),
    first_message: agentFields.first_message.default(''),
    first_message_mode: agentFields.first_message_mode.default(GREETING_DEFAULTS.first_message_mode),
    first_message_interruptible: agentFields.first_message_interruptible.default(GREETING_DEFAULTS.first_message_interruptible),
    recording_enabled: agentFields.recording_enabled.default(false),
    ambience_enabled: agentFields.ambience_enabled.default(false),
    ambience: agentFields.ambience.optional(),
    pronunciations: agentFields.pronunciations.optional(),
    interruption: agentFields.interruption.optional(),
    silence: agentFields.silence.optional(),
    turn_taking: agentFields.turn_taking.optional(),
    /** Post-call analysis (docs/webhooks.md); none unless given. */
    analysis: AgentAnalysis.optional(),
    voicemail_detection: agentFields.voicemail_detection.default(CALL_CONTROL_DEFAULTS.voicemail_detection),
    voicemail_action: agentFields.voicemail_action.default(CALL_CONTROL_DEFAULTS.voicemail_action),
    voicemail_message: agentFields.voicemail_message.default(CALL_CONTROL_DEFAULTS.voicemail_message),
    // Absent: the platform's CALL_MAX_DURATION_SECONDS applies (read at each call, so it follows the setting).
    max_duration_seconds: agentFields.max_duration_seconds.optional(),
    dtmf_shortcuts: agentFields.dtmf_shortcuts.default({}),
    transfer_mode: agentFields.transfer_mode.default(CALL_CONTROL_DEFAULTS.transfer_mode),
    fallback: agentFields.fallback.optional(),
    tool_ids: agentFields.tool_ids.optional(),
    knowledge_base_ids: agentFields.knowledge_base_ids.optional(),
    knowledge_base_mode: agentFields.knowledge_base_mode.optional(),
    handoffs: agentFields.handoffs.optional(),
    realtime: agentFields.realtime.optional(),
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
    /** null removes it: the cascade answers again. */
    realtime: agentFields.realtime.nullable().optional(),
    /** null removes it; a switch away from `custom` removes both. */
    llm_base_url: agentFields.llm_base_url.nullable().optional(),
    /** null removes the key; `********` (what a read shows) keeps the stored one. */
    llm_api_key: agentFields.llm_api_key.nullable().optional(),
    workspaceId: WorkspaceIdField.optional(),
  } as { [K in Exclude<keyof typeof agentFields, 'llm_base_url' | 'llm_api_key' | 'realtime'>]: z.ZodOptional<(typeof agentFields)[K]> } & {
    realtime: z.ZodOptional<z.ZodNullable<typeof agentFields.realtime>>;
    analysis: z.ZodOptional<z.ZodNullable<typeof AgentAnalysis>>;
    llm_base_url: z.ZodOptional<z.ZodNullable<typeof agentFields.llm_base_url>>;
    llm_api_key: z.ZodOptional<z.ZodNullable<typeof agentFields.llm_api_key>>;
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
  /** `custom` agents: their endpoint (null once removed). */
  llm_base_url?: string | null;
  /** `custom` agents: the key, sealed with the workspace as context (lib/store/secret-box.ts); null once removed. */
  llm_api_key?: string | null;
  tts_provider: (typeof TTS_PROVIDERS)[number];
  tts_voice_id: string;
  stt_provider: (typeof STT_PROVIDERS)[number];
  /** Absent on agents stored before it: {@link DEFAULT_LANGUAGE}. */
  language?: string;
  system_prompt: string;
  first_message: string;
  /** Absent on agents stored before it: {@link GREETING_DEFAULTS}. */
  first_message_mode?: FirstMessageMode;
  first_message_interruptible?: boolean;
  recording_enabled: boolean;
  ambience_enabled: boolean;
  /** Absent: a quiet office when ambience is on (`AMBIENCE_DEFAULTS`, lib/domain/ambience.ts). */
  ambience?: AmbienceConfig;
  pronunciations?: Pronunciation[];
  /** Absent on agents that never set it: every default applies. */
  interruption?: InterruptionConfig;
  silence?: SilenceConfig;
  turn_taking?: TurnTakingConfig;
  /** null once removed by an update. */
  analysis?: AgentAnalysis | null;
  /** The call-control fields are optional: agents stored before them read as {@link CALL_CONTROL_DEFAULTS}. */
  voicemail_detection?: (typeof VOICEMAIL_DETECTION)[number];
  voicemail_action?: (typeof VOICEMAIL_ACTIONS)[number];
  voicemail_message?: string;
  max_duration_seconds?: number;
  dtmf_shortcuts?: Record<string, DtmfShortcut>;
  transfer_mode?: (typeof TRANSFER_MODES)[number];
  fallback?: FallbackConfig;
  /**
   * The workspace tools offered to the model; absent or null: every tool of the workspace. An id whose tool
   * was deleted since is skipped at call time ({@link toolsOfAgent}).
   */
  tool_ids?: string[] | null;
  /** Knowledge bases it answers from (docs/knowledge.md); an id whose base was deleted since is skipped. */
  knowledge_base_ids?: string[];
  /** Absent: `auto`. */
  knowledge_base_mode?: KnowledgeBaseMode;
  /** Absent: no handoffs (docs/handoffs.md). */
  handoffs?: Handoff[];
  /** Absent (or null once removed): the cascade answers (docs/realtime.md). */
  realtime?: RealtimeConfig | null;
  workspaceId: string;
  createdAt: string;
  updatedAt: string;
  /** The latest published version (docs/agent-versions.md); absent on an agent never published. */
  published_version?: number;
  /** `updatedAt` of the draft that version was published from: a later edit is an unpublished change. */
  published_from?: string;
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
    /** As stored: absent or null offers every workspace tool. */
    tool_ids: z.array(z.string()).nullable().optional(),
    knowledge_base_ids: z.array(z.string()).optional(),
    knowledge_base_mode: z.enum(KNOWLEDGE_BASE_MODES).optional(),
    llm_base_url: z.string().nullable().optional(),
    /** `********` when a key is set, never the key itself. */
    llm_api_key: z.string().nullable().optional(),
  })
  .meta({ id: 'AgentCreated' });
export const AgentView = z
  .object({
    ...AgentCreated.shape,
    tts_voice_id: z.string(),
    language: z.string().default(DEFAULT_LANGUAGE),
    first_message_mode: z.enum(FIRST_MESSAGE_MODES).default(GREETING_DEFAULTS.first_message_mode),
    first_message_interruptible: z.boolean().default(GREETING_DEFAULTS.first_message_interruptible),
    ambience_enabled: z.boolean(),
    ambience: AmbienceConfig.optional(),
    pronunciations: Pronunciations.optional(),
    interruption: InterruptionConfig.optional(),
    silence: SilenceConfig.optional(),
    turn_taking: TurnTakingConfig.optional(),
    voicemail_detection: z.enum(VOICEMAIL_DETECTION).default(CALL_CONTROL_DEFAULTS.voicemail_detection),
    voicemail_action: z.enum(VOICEMAIL_ACTIONS).default(CALL_CONTROL_DEFAULTS.voicemail_action),
    voicemail_message: z.string().default(CALL_CONTROL_DEFAULTS.voicemail_message),
    max_duration_seconds: z.number().int().optional(),
    dtmf_shortcuts: z.record(z.string(), DtmfShortcut).default({}),
    transfer_mode: z.enum(TRANSFER_MODES).default(CALL_CONTROL_DEFAULTS.transfer_mode),
    fallback: FallbackConfig.optional(),
    handoffs: z.array(Handoff).optional(),
    realtime: RealtimeConfig.nullable().optional(),
    updatedAt: Timestamp,
    /** The version calls run (docs/agent-versions.md); null: never published, calls run this record. */
    published_version: z.number().int().nullable().default(null),
    /** The draft was edited since its latest version was published (false when never published). */
    has_unpublished_changes: z.boolean().default(false),
  })
  .meta({ id: 'Agent' });

/**
 * The workspace tools a call or chat of `agent` offers to the model: all of them when the agent names none
 * (`tool_ids` absent or null), else those it names, in its order. An id whose tool is gone (deleted after
 * the agent was saved) is skipped: the agent simply no longer has it. Built-in tools are added later, by
 * the session (streaming-service/src/tools/registry.ts), whatever this returns.
 */
export function toolsOfAgent<T extends { _id: string }>(agent: Pick<Agent, 'tool_ids'>, workspaceTools: readonly T[]): T[] {
  if (agent.tool_ids == null) return [...workspaceTools];
  const byId = new Map(workspaceTools.map((t) => [t._id, t]));
  return agent.tool_ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The call's one duration limit: the agent's, else the platform's. The session ends the call there (after
 * a closing line) and Twilio's `TimeLimit` is this plus {@link TIME_LIMIT_GRACE_SECONDS}, so the session's
 * orderly end comes first and Twilio's cut is only the backstop.
 */
export const callLimitSeconds = (agent: Pick<Agent, 'max_duration_seconds'>, platformDefault: number): number =>
  agent.max_duration_seconds ?? platformDefault;

/** Twilio's `TimeLimit` is the call's limit plus this: time for the session's own hang-up to land first. */
export const TIME_LIMIT_GRACE_SECONDS = 10;
