import type { RealtimeUsage } from '../../../lib/domain/realtime.js';
import type { CallTransfer } from '../../../lib/domain/call.js';
import type { CallEndReason } from '../../../lib/domain/history.js';
import type { CallFailure } from '../../../lib/domain/call-timeline.js';
import type { CallOutcome, CallSetup } from '../call/types.js';
import type { TurnLatency } from '../call/latency.js';
import type { Conversation } from '../conversation/conversation.js';
import type { TurnHost } from '../conversation/turn-loop.js';
import type { CallRecorder } from '../end/recording.js';
import type { SpeechHandle } from './speech-handle.js';
import type { CallTimeline } from './timeline.js';
import type { AgentSegments } from '../../../lib/domain/handoff.js';

/** What a finished call session holds that its outcome is made of. */
export interface FinishedSession {
  readonly setup: CallSetup;
  readonly conversation: Conversation<SpeechHandle>;
  readonly recorder: CallRecorder;
  readonly latencies: readonly TurnLatency[];
  readonly interruptions: readonly { handleId: string; atMs: number; clearedAtMs: number }[];
  readonly timeline: CallTimeline;
  readonly turnHost: TurnHost;
  /** Its agents, when it handed off (session/handoff.ts). */
  readonly handoffs?: { readonly segments: AgentSegments };
  readonly realtime?: { readonly usage: RealtimeUsage; readonly fellBackAt?: number | undefined } | undefined;
}

/**
 * The call's outcome, for its history record: the transcript, measurements and usage, its timeline closed
 * with the end, the last transfer, and the vendor failure when that is what ended it.
 */
export function outcomeOf(s: FinishedSession, reason: CallEndReason, transfer: CallTransfer | undefined, failure: CallFailure | undefined): CallOutcome {
  const { conversation, recorder, latencies } = s;
  const events = s.timeline.finish({ latencies, interruptions: s.interruptions, transfer, reason });
  return {
    setup: s.setup,
    reason,
    endedAt: Date.now(),
    transcript: conversation.transcript(),
    conversation,
    recorder,
    latencies,
    events,
    ...(failure?.reason === reason ? { failure } : {}),
    llmUsage: s.turnHost.llmUsage,
    knowledge: s.turnHost.knowledgeUsed,
    ...(s.realtime ? { realtimeUsage: { ...s.realtime.usage } } : {}),
    ...(s.realtime?.fellBackAt !== undefined ? { realtimeFellBackAt: s.realtime.fellBackAt } : {}),
    ...(transfer ? { transfer } : {}),
    ...(s.handoffs ? { segments: s.handoffs.segments.close(Date.now()) } : {}),
  };
}
