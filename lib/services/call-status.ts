import type { CallError } from '../domain/call-timeline.js';
import { END_REASON_OF_STATE, stateOfProviderStatus, type Call, type CallState } from '../domain/call.js';
import { historyOf } from '../domain/call-record.js';
import type { CallEndReason } from '../domain/history.js';
import { isMachine } from '../domain/voicemail.js';
import { log } from '../observability/log.js';
import { advanceCall, findCall } from '../store/calls.js';
import { writeHistoryRecord, type HistoryDeps } from './call-events.js';
import { settleCall } from './credits.js';

/**
 * A call's provider states (docs/calls.md): status callbacks moving it along, and the end of a call that
 * never connected (busy, no answer, failed, canceled, never dialed, or answered with no stream). A call
 * whose stream was claimed ends in connected-call-end.ts.
 */

/**
 * Ends a call that never connected (busy, no answer, failed, canceled, or never dialed): moves it to the
 * terminal state, releases its whole reservation and writes its zero-cost history record. Every step is
 * idempotent, so a repeated callback or redelivered message does it at most once.
 */
export async function endUnconnectedCall(
  deps: HistoryDeps,
  call: Call,
  state: Exclude<CallState, 'initiated' | 'dialing' | 'ringing' | 'in-progress' | 'completed'>,
  endReason: CallEndReason,
  /** The vendor failure behind the end (a provider that refused to place the call), for the record. */
  callError?: CallError,
): Promise<void> {
  const now = new Date().toISOString();
  const moved = await advanceCall(deps.db, call.workspaceId, call._id, state, now, { endReason });
  const current = moved ?? (await findCall(deps.db, call.workspaceId, call._id));
  // Another terminal state won the race (say, `completed` from a live call): that path settles instead.
  if (!current || current.status !== state) return;
  const reason = current.endReason ?? endReason;
  const settled = await settleCall(deps, { workspaceId: call.workspaceId, callId: call._id, durationSeconds: 0, endReason: reason, unlessStreamed: true, call: current });
  // A stream claimed meanwhile (or before a forged callback) settles the call itself when it ends.
  if (settled.kind === 'streaming' || settled.kind === 'missing') return;
  const record = historyOf(current, { endReason: reason, durationSeconds: 0, cost: 0 });
  await writeHistoryRecord(deps, callError && reason === endReason ? { ...record, callError } : record);
  log('info', 'call ended unconnected', { callId: call._id, state, endReason: reason });
}

/** What a status callback tells us about one of our calls. */
export interface ProviderStatus {
  readonly callSid: string;
  readonly status: string;
  readonly durationSeconds?: number;
  readonly answeredBy?: string;
}

/**
 * Applies a provider status callback to the call it names: moves it forward (never back) and ends calls
 * that never connected with their reason. Its fields cannot decide the bill of a call that streamed (a
 * BYOT customer holds the signing secret and can send `completed` with `CallDuration=0`): once the call's
 * stream was claimed, a callback records the state and the stream's end settles with the duration the
 * streaming service measured. A final callback settles only a call that never streamed (answered, but our
 * TwiML or the stream never came), with its duration, and writes that call's history record.
 */
export async function applyProviderStatus(
  deps: HistoryDeps,
  workspaceId: string,
  callId: string,
  update: ProviderStatus,
): Promise<void> {
  const next = stateOfProviderStatus(update.status);
  if (!next) return;
  const now = new Date().toISOString();
  // A call on its way (ringing, answered) moves in one write that checks the provider call too; it is read
  // only when it did not move, to say why.
  const onItsWay = next === 'ringing' || next === 'in-progress';
  if (onItsWay && (await advanceCall(deps.db, workspaceId, callId, next, now, { providerCallSid: update.callSid, onlyForProviderCall: true }))) return;
  const call = await findCall(deps.db, workspaceId, callId);
  if (!call) {
    log('warn', 'status for an unknown call', { callId, workspaceId, status: update.status });
    return;
  }
  if (call.providerCallSid && call.providerCallSid !== update.callSid) {
    // A callback for another provider call naming our id: not ours to act on.
    log('warn', 'status for a different provider call', { callId, callSid: update.callSid });
    return;
  }
  // Not moved: a late or repeated callback, which changes nothing.
  if (onItsWay) return;
  const endReason = END_REASON_OF_STATE[next];
  if (endReason) {
    // A call whose stream started did connect, whatever the callback says; its stream records how it ended.
    if (call.streamStartedAt === undefined) await endUnconnectedCall(deps, { ...call, providerCallSid: update.callSid }, next as 'busy', endReason);
    return;
  }
  const moved = await advanceCall(deps.db, workspaceId, callId, next, now, { providerCallSid: update.callSid });
  if (next !== 'completed') return;
  const reason: CallEndReason = isMachine(update.answeredBy ?? call.answeredBy) ? 'voicemail' : 'customer_hangup';
  const settled = await settleCall(deps, { workspaceId, callId, durationSeconds: update.durationSeconds ?? 0, endReason: reason, unlessStreamed: true, call: moved });
  if (settled.kind === 'settled') {
    const ended = settled.call;
    await writeHistoryRecord(
      deps,
      historyOf(ended, { endReason: ended.endReason ?? reason, durationSeconds: ended.billedSeconds ?? 0, cost: ended.cost ?? 0 }),
    );
  }
}
