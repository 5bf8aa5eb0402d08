import type { Deps } from '../deps.js';
import type { Call } from '../domain/call.js';
import type { HistoryRecord } from '../domain/history.js';
import { putEndedCallRecord } from '../store/history.js';
import { announce } from './webhook-events.js';
import { recordCallOutcome } from './call-metrics.js';

/**
 * The call events customers receive by webhook (docs/webhooks.md): what each carries, and the one place a
 * history record is written and announced, so every way a call ends (connected, never connected, abandoned)
 * sends `call.ended` exactly when its record first exists.
 */

/** What writing and announcing a history record needs. */
export type HistoryDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'webhooks'>;

/** `call.started`: the call's stream was admitted (the conversation begins). */
export const callStartedData = (call: Call, startedAt: string): Record<string, unknown> => ({
  callId: call._id,
  agentId: call.agentId,
  agentType: call.agentType,
  direction: call.direction,
  to: call.to,
  from: call.from,
  contactName: call.contactName,
  startedAt,
  ...(call.metadata ? { metadata: call.metadata } : {}),
});

/** `call.ended`: the history record's summary fields (the transcript is one GET away, and can be large). */
export const callEndedData = (record: HistoryRecord): Record<string, unknown> => ({
  callId: record._id,
  agentType: record.agentType,
  fullName: record.fullName,
  mobileNumber: record.mobileNumber,
  callDuration: record.callDuration,
  callEndReason: record.callEndReason,
  callSummary: record.callSummary,
  callCost: record.callCost,
  hasRecording: Boolean(record.callRecordingUrl),
  createdAt: record.createdAt,
  ...(record.callError ? { callError: record.callError } : {}),
  ...(record.metadata ? { metadata: record.metadata } : {}),
});

/**
 * Writes a call's history record and, when this write put it (created it, or replaced a meeting's
 * `not_joined` placeholder with what happened), announces `call.ended`.
 */
export async function writeHistoryRecord(deps: HistoryDeps, record: HistoryRecord): Promise<boolean> {
  const created = await putEndedCallRecord(deps.db, record);
  // Counted where the record is first written, so each call is counted once whichever process ends it.
  if (created) recordCallOutcome(deps.config, record.callEndReason);
  if (created) await announce(deps, record.workspace_id, 'call.ended', callEndedData(record));
  return created;
}
