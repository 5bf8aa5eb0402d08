import type { RealtimeUsage } from './realtime.js';
import type { RealtimeCost } from './realtime-pricing.js';
import { isTerminalStatus, type Call, type CallTransfer } from './call.js';
import type { CallEndReason } from './call-end.js';
import type { TurnLatencyFigures } from './call-measurement.js';
import type { LatencySummary } from './caller-wait.js';
import type { HistoryRecord } from './history.js';
import { isMachine } from './voicemail.js';
import { overriddenFields } from './agent-overrides.js';
import type { KnowledgeUse } from './knowledge/schema.js';
import type { AgentSegment } from './handoff.js';

/**
 * The history record a call leaves, built by one pure function whichever way the call ended (connected,
 * never connected, swept as abandoned, a chat, a meeting's placeholder): the live call says who, when and
 * what was charged; the outcome says what the conversation produced.
 */

/** What a call's end adds to the live call's own fields (nothing for unconnected calls). */
export interface CallRecordOutcome {
  readonly endReason: CallEndReason;
  readonly durationSeconds: number;
  readonly cost: number;
  readonly transcript?: string;
  readonly summary?: string;
  readonly recordingUrl?: string;
  readonly transfer?: CallTransfer;
  /** The knowledge-base chunks the answers used (docs/knowledge.md). */
  readonly knowledge?: readonly KnowledgeUse[];
  /** The agents that ran the conversation, when it handed off (docs/handoffs.md). */
  readonly segments?: readonly AgentSegment[];
  /** The contact the conversation found, when the call itself names none (an inbound caller). */
  readonly contact?: { readonly name: string; readonly phoneNumber: string };
}

/** The history record a call leaves, with what the conversation produced. */
export function historyOf(call: Call, outcome: CallRecordOutcome): HistoryRecord {
  return {
    _id: call._id,
    agentType: call.agentType,
    agentId: call.agentId,
    fullName: outcome.contact?.name || call.contactName,
    // The number dialed (or that called), even when the contact (found by name) has another one.
    mobileNumber: call.to || (outcome.contact?.phoneNumber ?? ''),
    callDuration: Math.max(0, Math.round(outcome.durationSeconds)),
    callEndReason: outcome.endReason,
    callTranscript: outcome.transcript ?? '',
    callSummary: outcome.summary ?? '',
    callCost: outcome.cost,
    ...(call.costBreakdown ? { callCostBreakdown: call.costBreakdown } : {}),
    ...(outcome.recordingUrl ? { callRecordingUrl: outcome.recordingUrl } : {}),
    ...(isTerminalStatus(call.status) ? { callStatus: call.status } : {}),
    ...(call.answeredBy ? { answeredBy: call.answeredBy } : {}),
    ...(outcome.transfer ? { transfer: outcome.transfer } : {}),
    ...(outcome.knowledge?.length ? { knowledge: [...outcome.knowledge] } : {}),
    ...(outcome.segments && outcome.segments.length > 1 ? { segments: [...outcome.segments] } : {}),
    ...(call.metadata ? { metadata: call.metadata } : {}),
    ...(call.variables ? { variables: call.variables } : {}),
    ...(call.agentOverrides ? { agentOverrides: overriddenFields(call.agentOverrides) } : {}),
    ...(call.agentVersion !== undefined ? { agentVersion: call.agentVersion } : {}),
    workspace_id: call.workspaceId,
    createdAt: call.createdAt,
  };
}

/** The stored record of a connected call: the API fields plus what the streaming service measured. */
export type VoiceHistoryRecord = HistoryRecord & {
  /** Per turn latency figures (ms). */
  turnLatencies: readonly TurnLatencyFigures[];
  /** The caller waits of `turnLatencies` in three figures (lib/domain/caller-wait.ts). */
  latencySummary: LatencySummary;
  llmUsage: { inputTokens: number; outputTokens: number };
  /** Speech-to-speech calls: the realtime model's audio and text tokens (docs/realtime.md). */
  realtimeUsage?: RealtimeUsage;
  /** Speech-to-speech calls: what the call was charged, the model's tokens and the platform's share (docs/realtime.md, "Billing"). */
  realtimeCost?: RealtimeCost;
  callSid: string;
  agentId: string;
};

/**
 * A call a machine answered ended because of it, however the stream saw the end (the AMD webhook hung up
 * or left the message, or the agent gave up on the silence): `voicemail`. Transfers and errors keep theirs.
 */
export function endReasonAfterDetection(reason: CallEndReason, answeredBy: string | undefined): CallEndReason {
  const byMachine: readonly CallEndReason[] = ['customer_hangup', 'agent_hangup', 'silence_timeout', 'max_duration'];
  return isMachine(answeredBy) && byMachine.includes(reason) ? 'voicemail' : reason;
}
