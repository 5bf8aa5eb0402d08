import { createHash } from 'node:crypto';
import type { CallCapability } from '../domain/provider-key.js';
import { publicUrl } from '../config.js';
import type { Deps } from '../deps.js';
import {
  END_REASON_OF_STATE,
  IdempotencyKey,
  reservationFor,
  stateOfProviderStatus,
  TERMINAL_CALL_STATES,
  type Call,
  type CallPricing,
  type CallStarted,
  type CallState,
  type PhoneCallRequest,
} from '../domain/call.js';
import type { Contact } from '../domain/contact.js';
import { callLimitSeconds, type Agent } from '../domain/agent.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { doNotCallRefusal } from '../domain/dnc.js';
import { isMachine } from '../domain/voicemail.js';
import { AppError, NotFoundError, ValidationError } from '../domain/errors.js';
import type { CallEndReason, HistoryRecord } from '../domain/history.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { log } from '../observability/log.js';
import { getAgent } from '../store/agents.js';
import { advanceCall, claimStream, findCall, heartbeatStream } from '../store/calls.js';
import { createCallWithReservation, findIdempotencyRecord, type IdempotencyRecord } from '../store/call-creation.js';
import { contactIdByPhone, getContact, listContacts } from '../store/contacts.js';
import { key } from '../store/model.js';
import { getPhoneNumber } from '../store/phone-numbers.js';
import { writeHistoryRecord, type HistoryDeps } from './call-events.js';
import { releaseWidgetLease } from '../store/widget-leases.js';
import { callPricing, checkLowCredits, insufficientCredits, settleCall } from './credits.js';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Calls from start to end: starting an outbound one (credits, idempotency, the dispatch message), answering
 * an inbound one (its reservation), the single stream claim, the provider's status callbacks moving a call
 * along, and the record it leaves in history. docs/calls.md.
 */

type CallDeps = Pick<Deps, 'config' | 'db' | 'dispatch'> & HistoryDeps;

/** How long a retried request with the same `Idempotency-Key` gets the first answer: a day, as Stripe does. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.', [
      { field: 'Idempotency-Key', message: 'send a new key for a new request' },
    ]);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A stable text of a JSON value (object keys sorted), so the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The contact a call is for: the one with the destination number, else the one named `contactName`. */
export async function findCallContact(
  deps: Pick<Deps, 'db'>,
  workspaceId: string,
  e164: string | undefined,
  contactName: string | undefined,
): Promise<Contact | undefined> {
  if (e164) {
    const id = await contactIdByPhone(deps.db, workspaceId, e164);
    if (id) {
      const contact = await getContact(deps.db, workspaceId, id).catch(() => undefined);
      if (contact) return contact;
    }
  }
  if (contactName) {
    const wanted = contactName.trim().toLowerCase();
    // The search index holds lower-cased names; an exact (case-insensitive) name wins over a partial one.
    const page = await listContacts(deps.db, workspaceId, { page: 1, limit: 100, search: wanted });
    return page.data.find((c) => c.contactName.trim().toLowerCase() === wanted);
  }
  return undefined;
}

/** Parses a destination, with a 400 naming the field. */
export function destination(input: string, field = 'phoneNumber'): string {
  const phone = normalizePhone(input);
  if (!phone) throw new ValidationError([{ field, message: 'not a phone number in E.164 form, for example +14155552671' }]);
  return phone.e164;
}

/**
 * Starts an outbound phone call: checks the agent, the destination and the number to call from, finds
 * the contact, reserves credits and writes the call in one transaction, then sends one dispatch message.
 * With an `Idempotency-Key`, a retry of the same request returns the first answer and starts nothing.
 */
export async function startPhoneCall(
  deps: CallDeps,
  workspaceId: string,
  request: PhoneCallRequest,
  idempotencyKeyHeader?: string,
): Promise<CallStarted> {
  const now = Date.now();
  let idempotency: { keyHash: string; requestHash: string } | undefined;
  if (idempotencyKeyHeader !== undefined) {
    const parsed = IdempotencyKey.safeParse(idempotencyKeyHeader);
    if (!parsed.success) throw new ValidationError([{ field: 'Idempotency-Key', message: parsed.error.issues[0]!.message }]);
    idempotency = { keyHash: sha256(parsed.data), requestHash: sha256(canonical(request)) };
    const prior = await findIdempotencyRecord(deps.db, workspaceId, idempotency.keyHash, now);
    if (prior) return replay(prior.requestHash, idempotency.requestHash, prior.answer);
  }

  const to = destination(request.phoneNumber);
  const [agent, number] = await Promise.all([
    getAgent(deps.db, workspaceId, request.assistantId),
    getPhoneNumber(deps.db, workspaceId, request.phoneNumberId),
  ]);
  if (number.status !== 'active') throw new NotFoundError('Phone number');
  const contact = await findCallContact(deps, workspaceId, to, request.contactName);
  const outcome = await placeOutboundCall(deps, {
    workspaceId,
    agent,
    from: number,
    to,
    contact,
    contactName: request.contactName,
    nowMs: now,
    idempotency: idempotency && { ...idempotency, expiresAt: Math.floor(now / 1000) + IDEMPOTENCY_TTL_SECONDS },
    doNotCall: request.consentedCall !== true,
  });
  if (outcome.kind === 'do_not_call') {
    await recordDoNotCallRefusal(deps, outcome.call);
    throw doNotCallRefusal(outcome.call.to, outcome.call._id);
  }
  if (outcome.kind === 'insufficient') throw await insufficientCredits(deps, workspaceId, outcome.reserved);
  if (outcome.kind === 'duplicate') return replay(outcome.record.requestHash, idempotency!.requestHash, outcome.record.answer);
  return outcome.answer;
}

/** What placing an outbound call needs once the request was checked (the API and campaigns both come here). */
export interface OutboundCall {
  readonly workspaceId: string;
  readonly agent: Pick<Agent, '_id' | 'max_duration_seconds'>;
  readonly from: Pick<PhoneNumber, '_id' | 'number'>;
  /** E.164. */
  readonly to: string;
  readonly contact?: Pick<Contact, '_id' | 'contactName'>;
  readonly contactName?: string;
  /** A call id chosen by the caller (a campaign records it before the call exists); a new one otherwise. */
  readonly callId?: string;
  readonly campaignId?: string;
  readonly nowMs: number;
  readonly idempotency?: Omit<IdempotencyRecord, 'answer'>;
  /**
   * Refuse a destination on the workspace's do-not-call list, checked in the call's own transaction (the
   * API, unless the request says the call is consented). Campaigns check the list in their dial's claim.
   */
  readonly doNotCall?: boolean;
}

export type PlacedCall =
  | { readonly kind: 'started'; readonly answer: CallStarted }
  | { readonly kind: 'insufficient'; readonly reserved: number }
  /** Nothing written: the destination is on the do-not-call list; `call` is the call that was not placed. */
  | { readonly kind: 'do_not_call'; readonly call: Call }
  | { readonly kind: 'duplicate'; readonly record: IdempotencyRecord };

/**
 * The one way an outbound call starts: reserves credits and writes the call in one transaction, then sends
 * one dispatch message. A failed send ends the call (`failed`, credits released) and throws.
 */
export async function placeOutboundCall(deps: CallDeps, input: OutboundCall): Promise<PlacedCall> {
  const pricing = agentPricing(deps.config, input.agent);
  const createdAt = new Date(input.nowMs).toISOString();
  const call: Call = {
    _id: input.callId ?? newId('call', input.nowMs),
    workspaceId: input.workspaceId,
    agentId: input.agent._id,
    agentType: 'voice',
    status: 'initiated',
    to: input.to,
    from: input.from.number,
    phoneNumberId: input.from._id,
    ...(input.contact ? { contactId: input.contact._id } : {}),
    contactName: input.contact?.contactName ?? input.contactName ?? '',
    reserved: reservationFor(pricing),
    maxDurationSeconds: pricing.maxDurationSeconds,
    ...(input.campaignId ? { campaignId: input.campaignId } : {}),
    createdAt,
    updatedAt: createdAt,
  };
  const answer: CallStarted = { call_id: call._id, status: 'initiated' };
  // Every call of a workspace updates its one balance item: a burst takes turns (transact), and one that
  // stays contended past the request's budget is a 503 to retry, never a refusal.
  const outcome = await createCallWithReservation(deps.db, call, input.idempotency && { ...input.idempotency, answer }, input.nowMs, { doNotCall: input.doNotCall });
  if (outcome.kind === 'do_not_call') return { kind: 'do_not_call', call };
  if (outcome.kind === 'insufficient') return { kind: 'insufficient', reserved: call.reserved };
  if (outcome.kind === 'duplicate') return outcome;
  await checkLowCredits(deps, input.workspaceId);

  try {
    await deps.dispatch.send({ callId: call._id, workspaceId: input.workspaceId });
  } catch (error) {
    // Without its message nobody would ever dial the call: end it now, give the credits back, and forget
    // the idempotency claim so a retry with the same key can start a fresh call.
    log('error', 'dispatch send failed', { callId: call._id, error: String(error) });
    await endUnconnectedCall(deps, call, 'failed', 'error');
    if (input.idempotency) {
      await deps.db.doc.send(new DeleteCommand({ TableName: deps.db.table, Key: key.idempotency(input.workspaceId, input.idempotency.keyHash) }));
    }
    throw error;
  }
  log('info', 'call initiated', { callId: call._id, workspaceId: input.workspaceId, reserved: call.reserved, ...(input.campaignId ? { campaignId: input.campaignId } : {}) });
  return { kind: 'started', answer };
}

/**
 * The call log's record of a call refused for the do-not-call list: the call was never placed (no live
 * call, no reservation, no dispatch), but history shows the attempt, with zero duration and cost, end
 * reason `do_not_call` and a summary saying why, and `call.ended` announces it as for any record.
 */
async function recordDoNotCallRefusal(deps: HistoryDeps, call: Call): Promise<void> {
  const summary = `Not placed: ${call.to} is on the workspace's do-not-call list.`;
  await writeHistoryRecord(deps, historyOf(call, { endReason: 'do_not_call', durationSeconds: 0, cost: 0, summary }));
  log('info', 'call refused: do-not-call list', { callId: call._id, workspaceId: call.workspaceId });
}

function replay(storedHash: string, requestHash: string, answer: Record<string, unknown>): CallStarted {
  if (storedHash !== requestHash) throw new IdempotencyKeyReusedError();
  return answer as CallStarted;
}

/** The history record a call leaves, with what the conversation produced (nothing for unconnected calls). */
export function historyOf(
  call: Call,
  outcome: { endReason: CallEndReason; durationSeconds: number; cost: number; transcript?: string; summary?: string; recordingUrl?: string },
): HistoryRecord {
  return {
    _id: call._id,
    agentType: call.agentType,
    agentId: call.agentId,
    fullName: call.contactName,
    mobileNumber: call.to,
    callDuration: Math.max(0, Math.round(outcome.durationSeconds)),
    callEndReason: outcome.endReason,
    callTranscript: outcome.transcript ?? '',
    callSummary: outcome.summary ?? '',
    callCost: outcome.cost,
    ...(call.costBreakdown ? { callCostBreakdown: call.costBreakdown } : {}),
    ...(outcome.recordingUrl ? { callRecordingUrl: outcome.recordingUrl } : {}),
    ...(TERMINAL_CALL_STATES.has(call.status) ? { callStatus: call.status } : {}),
    ...(call.answeredBy ? { answeredBy: call.answeredBy } : {}),
    workspace_id: call.workspaceId,
    createdAt: call.createdAt,
  };
}

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
  await writeHistoryRecord(deps, historyOf(current, { endReason: reason, durationSeconds: 0, cost: 0 }));
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

/**
 * The history writer for the streaming service, at the end of a connected call (every admitted stream
 * claimed a live call: outbound, or inbound reserved at the voice webhook). It settles the call's
 * reservation for the duration the stream measured, marks the call completed, fills the name from the call
 * when the stream found no contact, and writes the record with `callDuration` = the seconds billed and
 * `callCost` = the credits charged (leaving out the shares of `onWorkspaceKeys`, the capabilities the stream
 * ran on the workspace's own vendor keys: docs/provider-keys.md). Writing a record twice keeps the first.
 * Returns what was written.
 */
export async function recordConnectedCall<T extends HistoryRecord>(deps: HistoryDeps, record: T, onWorkspaceKeys: readonly CallCapability[] = []): Promise<T> {
  const before = await findCall(deps.db, record.workspace_id, record._id);
  const endReason = endReasonAfterDetection(record.callEndReason as CallEndReason, before?.answeredBy);
  const settled = await settleCall(deps, { workspaceId: record.workspace_id, callId: record._id, durationSeconds: record.callDuration, endReason, onWorkspaceKeys, call: before });
  if (settled.kind === 'missing') throw new Error(`No live call ${record._id} to settle`);
  const call = settled.call;
  // A widget call's session is over: its key may open another (docs/widget.md, abuse limits).
  if (call.widgetKeyHash) await releaseWidgetLease(deps.db, call.widgetKeyHash, call._id);
  await advanceCall(deps.db, call.workspaceId, call._id, 'completed', new Date().toISOString(), { endReason });
  const written: T = {
    ...record,
    agentType: call.agentType,
    fullName: record.fullName || call.contactName,
    // The number dialed (or that called), even when the contact (found by name) has another one.
    mobileNumber: call.to || record.mobileNumber,
    callDuration: call.billedSeconds ?? record.callDuration,
    callCost: call.cost ?? 0,
    ...(call.costBreakdown ? { callCostBreakdown: call.costBreakdown } : {}),
    callEndReason: endReason,
    // The stream ended, so the provider's call did too (or moved on, for a transfer): completed.
    callStatus: 'completed',
    ...(call.answeredBy ? { answeredBy: call.answeredBy } : {}),
    createdAt: call.createdAt,
  };
  await writeHistoryRecord(deps, written);
  return written;
}

/**
 * A call a machine answered ended because of it, however the stream saw the end (the AMD webhook hung up
 * or left the message, or the agent gave up on the silence): `voicemail`. Transfers and errors keep theirs.
 */
function endReasonAfterDetection(reason: CallEndReason, answeredBy: string | undefined): CallEndReason {
  const byMachine: readonly CallEndReason[] = ['customer_hangup', 'agent_hangup', 'silence_timeout', 'max_duration'];
  return isMachine(answeredBy) && byMachine.includes(reason) ? 'voicemail' : reason;
}

/**
 * Claims the one media stream a stream token admits, before any vendor is touched: the live call, or
 * undefined when a stream was already claimed for it, it has ended or settled, or the sid does not match.
 */
export const claimCallStream = (
  deps: Pick<Deps, 'db'>,
  claims: { workspaceId: string; callId: string; callSid: string },
  streamSid: string,
  nowMs: number = Date.now(),
) => claimStream(deps.db, claims.workspaceId, claims.callId, claims.callSid, streamSid, new Date(nowMs).toISOString());

/**
 * The claimed stream's heartbeat (docs/calls.md, "Abandoned streams"): true while the call is unsettled,
 * false once it was settled (the stream was swept as abandoned, or already ended).
 */
export const heartbeatCallStream = async (
  deps: Pick<Deps, 'db'>,
  claims: { workspaceId: string; callId: string },
  streamSid: string,
  nowMs: number = Date.now(),
): Promise<boolean> => (await heartbeatStream(deps.db, claims.workspaceId, claims.callId, streamSid, new Date(nowMs).toISOString())) !== undefined;

/**
 * The pricing of one agent's call: the platform's rate over the agent's duration limit, so the reservation
 * covers the longest call the agent can have (and no more).
 */
export function agentPricing(config: Deps['config'], agent: Pick<Agent, 'max_duration_seconds'>): CallPricing {
  const pricing = callPricing(config);
  return { ...pricing, maxDurationSeconds: callLimitSeconds(agent, pricing.maxDurationSeconds) };
}

/** Whether a call can still be connected (the voice webhook refuses ended calls). */
export const isLive = (call: Call): boolean => !TERMINAL_CALL_STATES.has(call.status);

/** The URL the provider fetches the call's TwiML from; the call id rides in the signed query. */
export const voiceWebhookUrl = (config: Deps['config'], callId: string) => publicUrl(config, `/twilio/voice?callId=${encodeURIComponent(callId)}`);

/** The URL the provider posts its answering-machine verdict to (asynchronous AMD). */
export const amdWebhookUrl = (config: Deps['config'], call: Pick<Call, '_id' | 'workspaceId'>) =>
  publicUrl(config, `/twilio/amd?callId=${encodeURIComponent(call._id)}&workspaceId=${encodeURIComponent(call.workspaceId)}`);

/** The URL a warm transfer's target posts its key to (the `<Gather>` action): it names the caller's call. */
export const transferWebhookUrl = (config: Deps['config'], call: Pick<Call, '_id' | 'workspaceId'>) =>
  publicUrl(config, `/twilio/transfer?callId=${encodeURIComponent(call._id)}&workspaceId=${encodeURIComponent(call.workspaceId)}`);

/** The URL the provider posts the call's status changes to. */
export const statusWebhookUrl = (config: Deps['config'], callId: string) => publicUrl(config, `/twilio/status?callId=${encodeURIComponent(callId)}`);
