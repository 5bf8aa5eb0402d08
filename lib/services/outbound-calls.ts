import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import { IdempotencyKey, reservationFor, type Call, type CallStarted, type PhoneCallRequest } from '../domain/call.js';
import { historyOf } from '../domain/call-record.js';
import type { Contact } from '../domain/contact.js';
import type { Agent } from '../domain/agent.js';
import type { PhoneNumber } from '../domain/phone-number.js';
import { doNotCallRefusal } from '../domain/dnc.js';
import { AppError, NotFoundError, ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { log } from '../observability/log.js';
import { agentToRunById } from './agent-runtime.js';
import { createCallWithReservation, findIdempotencyRecord, forgetIdempotencyRecord, type IdempotencyRecord } from '../store/call-creation.js';
import { contactIdByPhone, getContact, listContacts } from '../store/contacts.js';
import { getPhoneNumber } from '../store/phone-numbers.js';
import { writeHistoryRecord, type HistoryDeps } from './call-events.js';
import { agentPricing } from './calls.js';
import { endUnconnectedCall } from './call-status.js';
import { checkLowCredits, insufficientCredits } from './credits.js';
import { agentForCall, assertVariablesSupplied } from './call-variables.js';
import type { AgentOverrides } from '../domain/agent-overrides.js';
import type { VariableValue } from '../domain/template.js';

/**
 * Starting an outbound call (docs/calls.md): the request's checks, the contact, credits and idempotency
 * in one transaction, and the dispatch message; the API and campaigns both place calls here.
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
  const [stored, number] = await Promise.all([
    agentToRunById(deps.db, workspaceId, request.assistantId, request.agent_version),
    getPhoneNumber(deps.db, workspaceId, request.phoneNumberId),
  ]);
  if (number.status !== 'active') throw new NotFoundError('Phone number');
  // The agent as this call runs it: its reservation, limit and texts come from the overrides too.
  const agent = await agentForCall(deps, workspaceId, stored.agent, request.agent_overrides);
  const contact = await findCallContact(deps, workspaceId, to, request.contactName);
  await assertVariablesSupplied(deps, workspaceId, agent, contact, request.variables, request.contactName);
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
    ...(request.variables ? { variables: request.variables } : {}),
    ...(request.metadata ? { metadata: request.metadata } : {}),
    ...(request.agent_overrides ? { agentOverrides: request.agent_overrides } : {}),
    ...(stored.version !== undefined ? { agentVersion: stored.version } : {}),
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
  /** The call's own `{{variables}}` (lib/domain/template.ts), checked against the agent by the caller. */
  readonly variables?: Readonly<Record<string, VariableValue>>;
  /** The caller's own object, echoed on the record and in webhooks. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Agent fields for this call only; `agent` already has them applied. */
  readonly agentOverrides?: AgentOverrides;
  /** The published version `agent` is (docs/agent-versions.md). */
  readonly agentVersion?: number;
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
    ...(input.variables && Object.keys(input.variables).length > 0 ? { variables: { ...input.variables } } : {}),
    ...(input.metadata ? { metadata: { ...input.metadata } } : {}),
    ...(input.agentOverrides && Object.keys(input.agentOverrides).length > 0 ? { agentOverrides: input.agentOverrides } : {}),
    ...(input.agentVersion !== undefined ? { agentVersion: input.agentVersion } : {}),
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
      await forgetIdempotencyRecord(deps.db, input.workspaceId, input.idempotency.keyHash);
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
