import * as z from 'zod';
import { AGENT_TYPES, CALL_END_REASONS, type AgentType, type CallEndReason } from './call-end.js';
import { CallAnalysisView, type CallAnalysis } from './analysis.js';
import { Timestamp } from './common.js';
import { ValidationError } from './errors.js';
import { TERMINAL_CALL_STATUSES, type CallTransfer, type CostBreakdown, type TerminalCallStatus } from './call.js';
import { ANSWERED_BY } from './voicemail.js';
import { CALL_CAPABILITIES } from './provider-key.js';
import { CallError } from './call-timeline.js';
import { CallerWait, LatencySummary } from './caller-wait.js';
import { KnowledgeUseView, type KnowledgeUse } from './knowledge/schema.js';
import { AgentSegmentView, type AgentSegment } from './handoff.js';

export { AGENT_TYPES, CALL_END_REASONS, type AgentType, type CallEndReason } from './call-end.js';

/** A call history record; `_id` is the `call_id` of the call it describes. */
export interface HistoryRecord {
  _id: string;
  agentType: AgentType;
  /** The agent that ran the call or chat; absent on records written before it was kept. */
  agentId?: string;
  fullName: string;
  mobileNumber: string;
  callDuration: number;
  callEndReason: CallEndReason;
  callTranscript: string;
  callSummary: string;
  callCost: number;
  /**
   * The parts of `callCost`: the platform's share and each vendor capability's, 0 where the workspace's own
   * key ran it (docs/provider-keys.md). Absent on records written before the split existed.
   */
  callCostBreakdown?: CostBreakdown;
  /** Only when the call was recorded (an object-storage address); absent otherwise. */
  callRecordingUrl?: string;
  /** The provider's final call status behind `callEndReason` (Twilio's: completed, busy, no-answer, ...). */
  callStatus?: TerminalCallStatus;
  /** The answering-machine verdict, when detection ran (`human`, `machine_end_beep`, ...). */
  answeredBy?: string;
  /** The last transfer tried during the call, and its outcome. */
  transfer?: CallTransfer;
  workspace_id: string;
  createdAt: string;
  /** The post-call analysis, once it ran (agents with an `analysis` section). */
  analysis?: CallAnalysis;
  /** The call's `metadata`, as it was started with (docs/calls.md, "Metadata"). */
  metadata?: Record<string, unknown>;
  /** The call's own `variables`, as it was started with. */
  variables?: Record<string, string | number | boolean>;
  /** The agent fields the call overrode (docs/calls.md, "Agent overrides"). */
  agentOverrides?: string[];
  /** The published version of the agent the call ran (docs/agent-versions.md); absent: an agent never published. */
  agentVersion?: number;
  /** The vendor failure that ended the call (docs/calls.md, "Why a call failed"); absent when none did. */
  callError?: CallError;
  /** The knowledge-base chunks each answer was given (docs/knowledge.md); absent when none were. */
  knowledge?: KnowledgeUse[];
  /** Which agent ran which stretch, and why each handoff happened (docs/handoffs.md); absent when none did. */
  segments?: AgentSegment[];
}

const isoDate = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}/.test(v), {
    message: 'an ISO 8601 date or date-time, for example 2026-01-31 or 2026-01-31T12:00:00Z',
  })
  // Documented as what it takes: a date (a whole day) or a date-time.
  .meta({ anyOf: [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }], description: 'An ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z).' });

export const HistoryListQuery = z.object({
  agentType: z.enum(AGENT_TYPES).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  search: z.string().trim().max(200).optional(),
  /** The analysis outcome: `true` calls that met the agent's rubric, `false` those that did not. */
  success: z.enum(['true', 'false']).optional(),
  /** Records of this agent only; records written before `agentId` was kept match no agent. */
  agentId: z.string().trim().min(1).max(100).optional(),
});
export type HistoryListQuery = z.infer<typeof HistoryListQuery>;

/** A date-only `endDate` covers its whole day. */
export function historyRange(q: HistoryListQuery): { fromMs?: number; toMs?: number } {
  const fromMs = q.startDate ? Date.parse(q.startDate) : undefined;
  let toMs = q.endDate ? Date.parse(q.endDate) : undefined;
  if (toMs !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(q.endDate!)) toMs += 86_400_000 - 1;
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) {
    throw new ValidationError([{ field: 'startDate', message: 'startDate is after endDate' }]);
  }
  return { fromMs, toMs };
}

/** One caller turn's latency figures as the streaming service stores them (streaming-service/src/call/latency.ts). */
const TurnLatencyView = z.object({
  sttMs: z.number().nullable(),
  llmFirstTokenMs: z.number().nullable(),
  llmFirstPhraseMs: z.number().nullable(),
  ttsFirstByteMs: z.number().nullable(),
  overheadMs: z.number().nullable(),
  /** The caller's view of the turn; null when no agent audio followed it; absent on records from before it was kept. */
  callerWait: CallerWait.nullable().optional(),
});

const listFields = {
  _id: z.string(),
  agentType: z.enum(AGENT_TYPES),
  /** Absent on records written before it was kept. */
  agentId: z.string().optional(),
  fullName: z.string(),
  mobileNumber: z.string(),
  callDuration: z.number(),
  callEndReason: z.enum(CALL_END_REASONS),
  callSummary: z.string(),
  callCost: z.number(),
  workspace_id: z.string(),
  createdAt: Timestamp,
  analysis: CallAnalysisView.optional(),
  /** The call's own `metadata` (docs/calls.md, "Metadata"). */
  metadata: z.record(z.string(), z.unknown()).optional(),
};
export const HistoryListItem = z.object(listFields).meta({ id: 'HistoryListItem' });
export const HistoryView = z
  .object({
    ...listFields,
    callTranscript: z.string(),
    callRecordingUrl: z.string().optional(),
    callCostBreakdown: z
      .object({ platform: z.number(), stt: z.number(), llm: z.number(), tts: z.number(), realtime: z.number().optional(), workspaceKeys: z.array(z.enum(CALL_CAPABILITIES)) })
      .optional(),
    /** Speech-to-speech calls: the model's token counts (docs/realtime.md, "Billing"). */
    realtimeUsage: z
      .object({ model: z.string(), inputAudioTokens: z.number(), inputTextTokens: z.number(), cachedTokens: z.number(), cachedAudioTokens: z.number().optional(), outputAudioTokens: z.number(), outputTextTokens: z.number() })
      .optional(),
    /** Speech-to-speech calls: the tokens' list price in dollars, the credits charged for them and the platform's share. */
    realtimeCost: z
      .object({ model: z.string(), vendorUsd: z.number(), vendor: z.number(), platform: z.number(), total: z.number(), onWorkspaceKey: z.boolean() })
      .optional(),
    callStatus: z.enum(TERMINAL_CALL_STATUSES).optional(),
    /** A verdict outside Twilio's documented set reads as `unknown` (treated as a person, as the call was). */
    answeredBy: z.enum(ANSWERED_BY).catch('unknown').optional(),
    transfer: z
      .object({ destination: z.string(), mode: z.enum(['cold', 'warm']), outcome: z.enum(['transferred', 'accepted', 'declined', 'no-answer', 'busy', 'failed']) })
      .optional(),
    /** Per caller turn, in milliseconds (docs/voice-pipeline.md, "Latency figures"); null where a point was not reached. */
    turnLatencies: z.array(TurnLatencyView).optional(),
    /** The caller waits of `turnLatencies` in three figures (docs/voice-pipeline.md, "The caller's wait"). */
    latencySummary: LatencySummary.optional(),
    /** The `variables` the call was started with (docs/calls.md, "Variables"). */
    variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    /** The agent fields this call overrode with `agent_overrides`, by name. */
    agentOverrides: z.array(z.string()).optional(),
    /** The published version of the agent the call ran (docs/agent-versions.md). */
    agentVersion: z.number().int().optional(),
    /** The vendor failure that ended the call, safe to show; absent when none did (docs/calls.md, "Why a call failed"). */
    callError: CallError.optional(),
    /** The knowledge-base chunks each answer was given: document, section, page, score (docs/knowledge.md). */
    knowledge: z.array(KnowledgeUseView).optional(),
    /** Per agent of the conversation, in order, when it handed off at least once (docs/handoffs.md). */
    segments: z.array(AgentSegmentView).optional(),
  })
  .meta({ id: 'HistoryRecord' });
