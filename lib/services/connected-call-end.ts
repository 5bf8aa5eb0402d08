import type { Agent } from '../domain/agent.js';
import type { CallMeasurement } from '../domain/call-measurement.js';
import { latencySummary } from '../domain/caller-wait.js';
import { endReasonAfterDetection, historyOf, type VoiceHistoryRecord } from '../domain/call-record.js';
import { findCall } from '../store/calls.js';
import type { LlmProvider } from '../vendors/llm/port.js';
import { analyzeAndRecord } from './call-analysis.js';
import { writeHistoryRecord, type HistoryDeps } from './call-events.js';
import { putCallTimeline } from '../store/history.js';
import { settleCall } from './credits.js';
import { realtimeCostOf } from '../domain/realtime-pricing.js';

/**
 * The end of a connected call (every admitted stream claimed a live call: outbound, inbound reserved at the
 * voice webhook, or a browser call), the one owner of that transition. The streaming service reports what
 * it measured; this reads the call once, settles its reservation for the measured duration, marks it
 * `completed` and releases its widget lease in one transaction, writes its history record with the same
 * function as every other end, announces `call.ended` and runs the post-call analysis. docs/calls.md.
 */

/** The agent's LLM for the post-call analysis (the call's own providers, on the workspace's keys). */
export interface EndAnalysis {
  readonly llm: LlmProvider;
  readonly agent: Pick<Agent, 'llm_model' | 'analysis'>;
}

/**
 * Ends a connected call with what its stream measured and returns the record written (with its analysis,
 * when the agent asks for one). `callDuration` is the seconds billed and `callCost` the credits charged,
 * leaving out the shares of the capabilities the stream ran on the workspace's own vendor keys
 * (docs/provider-keys.md). Idempotent: a second end of the same call charges nothing and keeps the first
 * record (its settlement is conditioned on the call being unsettled; the record's first write wins).
 */
export async function endConnectedCall(deps: HistoryDeps, measured: CallMeasurement, analysis?: EndAnalysis): Promise<VoiceHistoryRecord> {
  const { workspaceId, callId } = measured;
  const before = await findCall(deps.db, workspaceId, callId);
  if (!before) throw new Error(`No live call ${callId} to settle`);
  const endReason = endReasonAfterDetection(measured.endReason, before.answeredBy);
  const settled = await settleCall(deps, {
    workspaceId,
    callId,
    durationSeconds: measured.durationSeconds,
    endReason,
    onWorkspaceKeys: measured.onWorkspaceKeys,
    ...(measured.realtimeUsage && { realtime: { usage: measured.realtimeUsage, onWorkspaceKey: measured.realtimeBilling?.onWorkspaceKey ?? false, cascadeSeconds: measured.realtimeBilling?.cascadeSeconds ?? 0 } }),
    call: before,
    complete: true,
    releaseLease: true,
  });
  if (settled.kind === 'missing') throw new Error(`No live call ${callId} to settle`);
  const call = settled.call;
  const record: VoiceHistoryRecord = {
    ...historyOf(call, {
      endReason,
      durationSeconds: call.billedSeconds ?? measured.durationSeconds,
      cost: call.cost ?? 0,
      transcript: measured.transcript,
      summary: measured.summary,
      recordingUrl: measured.recordingUrl,
      transfer: measured.transfer,
      contact: measured.contact,
      knowledge: measured.knowledge,
      segments: measured.segments,
    }),
    // The stream ended, so the provider's call did too (or moved on, for a transfer): completed.
    callStatus: 'completed',
    turnLatencies: measured.turnLatencies,
    latencySummary: latencySummary(measured.turnLatencies),
    llmUsage: { ...measured.llmUsage },
    ...(measured.realtimeUsage ? { realtimeUsage: { ...measured.realtimeUsage } } : {}),
    ...(measured.realtimeUsage && call.costBreakdown?.realtime !== undefined
      ? { realtimeCost: realtimeCostOf(measured.realtimeUsage, call.costBreakdown, call.cost ?? 0, measured.realtimeBilling?.onWorkspaceKey ?? false) }
      : {}),
    callSid: measured.callSid,
    agentId: call.agentId,
    ...(measured.callError ? { callError: measured.callError } : {}),
  };
  // The timeline first: whoever reads the record on `call.ended` finds its events.
  if (measured.events) await putCallTimeline(deps.db, workspaceId, callId, measured.events);
  await writeHistoryRecord(deps, record);
  if (!analysis) return record;
  // After the record and call.ended: the analysis is a second LLM request and must not delay either.
  const result = await analyzeAndRecord(deps, analysis.llm, analysis.agent, { workspaceId, callId, agentId: call.agentId, transcript: measured.transcript, ...(call.metadata ? { metadata: call.metadata } : {}) });
  return result ? { ...record, analysis: result } : record;
}
