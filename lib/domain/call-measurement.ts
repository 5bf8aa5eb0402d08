import type { CallTransfer } from './call.js';
import type { CallEndReason } from './call-end.js';
import type { CallCapability } from './provider-key.js';
import type { CallError, CallEvent } from './call-timeline.js';
import type { KnowledgeUse } from './knowledge/schema.js';
import type { AgentSegment } from './handoff.js';
import type { RealtimeUsage } from './realtime.js';
import type { CallerWaitFigures } from './caller-wait.js';

/**
 * What the streaming service measured of one connected call: the contract between the container and the
 * call's owner (lib/services/connected-call-end.ts). Only what the container alone knows is here; the call's
 * identity, parties, pricing and state are the live call's, read by the owner, which settles, completes and
 * records the call. The container never builds a history record.
 */
export interface CallMeasurement {
  readonly workspaceId: string;
  readonly callId: string;
  /** The stream's call sid (Twilio's `CA…`, or `web-<session>` for a browser call): kept on the record. */
  readonly callSid: string;
  /** Seconds from the stream's claim to its end, rounded up (billed per started second, docs/calls.md). */
  readonly durationSeconds: number;
  /** How the conversation ended, as the session saw it (the owner may refine it, e.g. to `voicemail`). */
  readonly endReason: CallEndReason;
  readonly transcript: string;
  readonly summary: string;
  /** The recording's object-storage address, when the agent records and the upload succeeded. */
  readonly recordingUrl?: string;
  /** Per caller turn, in milliseconds (docs/voice-pipeline.md, "Latency figures"). */
  readonly turnLatencies: readonly TurnLatencyFigures[];
  readonly llmUsage: { readonly inputTokens: number; readonly outputTokens: number };
  /** The last transfer tried during the call, and its outcome. */
  readonly transfer?: CallTransfer;
  /** The capabilities that ran on the workspace's own vendor keys: their shares are not charged (docs/provider-keys.md). */
  readonly onWorkspaceKeys: readonly CallCapability[];
  /** The vendor failure that ended the call (with `endReason` naming it), when one did. */
  readonly callError?: CallError;
  /** The call's event timeline, capped (lib/domain/call-timeline.ts), and whether events were left out. */
  readonly events?: { readonly data: readonly CallEvent[]; readonly truncated: boolean };
  /** The contact the conversation was with, when the container found one (an inbound caller by number). */
  readonly contact?: { readonly name: string; readonly phoneNumber: string };
  /** The knowledge-base chunks the answers were given (docs/knowledge.md). */
  readonly knowledge?: readonly KnowledgeUse[];
  /** The agents that ran the call, when it handed off (docs/handoffs.md). */
  readonly segments?: readonly AgentSegment[];
  /** The realtime model's token counts, when a speech-to-speech model carried (part of) the call (docs/realtime.md). */
  readonly realtimeUsage?: RealtimeUsage;
  /**
   * With `realtimeUsage`: whether the model ran on the workspace's own key for its vendor (its tokens are then
   * not charged) and how many seconds the cascade answered after a fallback (docs/realtime.md, "Billing").
   */
  readonly realtimeBilling?: { readonly onWorkspaceKey: boolean; readonly cascadeSeconds: number };
}

/** One caller turn's latency figures; null where a point was not reached. */
export interface TurnLatencyFigures {
  readonly sttMs: number | null;
  readonly llmFirstTokenMs: number | null;
  readonly llmFirstPhraseMs: number | null;
  readonly ttsFirstByteMs: number | null;
  readonly overheadMs: number | null;
  /**
   * The caller's view (docs/voice-pipeline.md, "The caller's wait"): null when no agent audio followed the
   * turn. Absent on records written before it was kept.
   */
  readonly callerWait?: CallerWaitFigures | null;
}
