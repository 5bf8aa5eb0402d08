import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { statesBefore, TERMINAL_CALL_STATES, type Call, type CallState, type CostBreakdown } from '../domain/call.js';
import type { CallEndReason } from '../domain/history.js';
import { callLedgerId, creditItem, debitItem, ledgerItem, type TransactItem } from './credits.js';
import { transact, type Db } from './dynamo.js';
import { GSI1, LIVE_STREAM_SHARDS, dialedCallShard, fromItem, key, liveStreamShard } from './model.js';

export {
  createCallWithReservation,
  createInboundCall,
  findCallByProviderSid,
  findIdempotencyRecord,
  putNewCall,
  type CreateCallOutcome,
  type CreateInboundOutcome,
  type IdempotencyRecord,
} from './call-creation.js';

/**
 * The live call records (`WS#<ws>/LIVECALL#<callId>`): state, reservation and settlement of each call
 * (a new call is written by call-creation.ts).
 * Every state change is a conditional write, so concurrent webhooks, duplicate queue messages and retries
 * can never move a call backwards or settle it twice.
 */

/** A call of the workspace, or undefined. */
export async function findCall(db: Db, ws: string, callId: string): Promise<Call | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.liveCall(ws, callId), ConsistentRead: true }));
  return out.Item ? fromItem<Call>(out.Item) : undefined;
}

/**
 * Runs a conditional update; undefined when the condition did not hold. A `claim` (a one-winner move: the
 * dispatch's, the stream's) writes a fresh token into that attribute and also holds where the token is
 * already there: the SDK resends a request whose answer was lost (a timeout after DynamoDB had carried it
 * out), and the resent claim must find its own write, not a call taken by someone else. Taken for someone
 * else's, a dispatch would leave its call `dialing` for good (never dialed, never settled, its campaign
 * waiting on it), and a stream would be refused for a call it holds.
 */
async function conditionalUpdate(
  db: Db,
  ws: string,
  callId: string,
  update: { set: Record<string, unknown>; condition: string; values?: Record<string, unknown>; names?: Record<string, string>; claim?: string },
): Promise<Call | undefined> {
  const names: Record<string, string> = { ...update.names };
  const values: Record<string, unknown> = { ...update.values };
  const set = update.claim ? { ...update.set, [update.claim]: randomUUID() } : update.set;
  const sets = Object.entries(set).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  // The claim's token is the last value set: the same request already carried out is the only way it is there.
  const condition = update.claim ? `(${update.condition}) OR #s${sets.length - 1} = :s${sets.length - 1}` : update.condition;
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.liveCall(ws, callId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(pk) AND (${condition})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem<Call>(out.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * Claims a call for dialing: `initiated` → `dialing`, recording which receive of the message did it. Only
 * one claim ever succeeds, so a duplicate or redelivered message cannot place a second call; the same claim
 * resent by the SDK is still its own (`dispatchClaim`, see conditionalUpdate).
 */
export const claimForDispatch = (db: Db, ws: string, callId: string, attempt: number, now: string) =>
  conditionalUpdate(db, ws, callId, {
    set: { status: 'dialing', dispatchAttempt: attempt, updatedAt: now },
    condition: '#st = :initiated',
    names: { '#st': 'status' },
    values: { ':initiated': 'initiated' },
    claim: 'dispatchClaim',
  });

/**
 * Gives a claim back (`dialing` → `initiated`) after the provider refused the call outright, so the next
 * receive may try again. Only the claim's own attempt may give it back, and only before anything else
 * (a status callback, a provider id) moved the call on.
 */
export const releaseDispatchClaim = (db: Db, ws: string, callId: string, attempt: number, now: string) =>
  conditionalUpdate(db, ws, callId, {
    set: { status: 'initiated', updatedAt: now },
    condition: '#st = :dialing AND dispatchAttempt = :attempt AND attribute_not_exists(providerCallSid)',
    names: { '#st': 'status' },
    values: { ':dialing': 'dialing', ':attempt': attempt },
  });

/** Records the provider's id of the placed call (the status may already have moved on: it is left alone). */
export const setProviderCallSid = (db: Db, ws: string, callId: string, sid: string, now: string) =>
  conditionalUpdate(db, ws, callId, {
    // The dialed-call index entry: found by the lost-callback reconciliation if no final callback settles it.
    set: { providerCallSid: sid, updatedAt: now, ...key.dialedCallIndex(callId, now) },
    condition: 'attribute_not_exists(providerCallSid)',
  });

/**
 * A dialed call the reconciliation found still live at the provider, or could not ask about: its index
 * entry moves to `now`, so it is asked about again only after another wait, behind the calls that waited
 * longer (a call that fails every time never keeps the others out of a run's limit). `failures` is how
 * many runs in a row could not ask (0 once the provider answered). Only while it is unsettled and never
 * streamed (a claim or a settlement meanwhile owns the index keys).
 */
export const recheckDialedCallLater = (db: Db, ws: string, callId: string, now: string, failures = 0): Promise<Call | undefined> =>
  conditionalUpdate(db, ws, callId, {
    set: { ...key.dialedCallIndex(callId, now), reconcileFailures: failures },
    condition: 'attribute_not_exists(settledAt) AND attribute_not_exists(streamStartedAt)',
  });

/**
 * Moves a call forward to `next`, only from a state of lower rank: late, repeated or out-of-order status
 * callbacks change nothing. Undefined when the move was not allowed (the call stays as it was).
 */
export function advanceCall(
  db: Db,
  ws: string,
  callId: string,
  next: CallState,
  now: string,
  extra: {
    endReason?: CallEndReason;
    providerCallSid?: string;
    /** Move only a call bound to no provider call yet, or to this one (`providerCallSid`): a status callback's. */
    onlyForProviderCall?: boolean;
  } = {},
): Promise<Call | undefined> {
  const from = statesBefore(next);
  const values: Record<string, unknown> = Object.fromEntries(from.map((s, i) => [`:f${i}`, s]));
  const set: Record<string, unknown> = { status: next, updatedAt: now };
  if (TERMINAL_CALL_STATES.has(next)) set.endedAt = now;
  if (extra.endReason) set.endReason = extra.endReason;
  if (extra.providerCallSid) set.providerCallSid = extra.providerCallSid;
  const names: Record<string, string> = { '#st': 'status' };
  let condition = `#st IN (${Object.keys(values).join(', ')})`;
  if (extra.onlyForProviderCall && extra.providerCallSid) {
    condition += ' AND (attribute_not_exists(#pcs) OR #pcs = :pcs)';
    names['#pcs'] = 'providerCallSid';
    values[':pcs'] = extra.providerCallSid;
  }
  return conditionalUpdate(db, ws, callId, { set, condition, names, values });
}

/**
 * Records what answered the call (the provider's AMD verdict) on a call not yet settled. Written before
 * the call is acted on (hung up, or redirected to leave a message), so when its stream ends the history
 * writer already knows it met a machine. Undefined when the call is gone or settled.
 */
export function recordAnsweredBy(db: Db, ws: string, callId: string, answeredBy: string, now: string): Promise<Call | undefined> {
  return conditionalUpdate(db, ws, callId, { set: { answeredBy, updatedAt: now }, condition: 'attribute_not_exists(settledAt)' });
}

/**
 * Claims a call's one media stream: records the stream's start, only if no stream was ever claimed for the
 * call, it is not settled or ended, and the provider call is the one the call is (or becomes) bound to. One
 * conditional write, so of any number of streams with the same token, across any number of containers,
 * exactly one is admitted, once. Undefined when the claim was refused.
 */
export function claimStream(db: Db, ws: string, callId: string, callSid: string, streamSid: string, now: string): Promise<Call | undefined> {
  const terminal = [...TERMINAL_CALL_STATES];
  const values: Record<string, unknown> = { ':sid': callSid, ...Object.fromEntries(terminal.map((s, i) => [`:t${i}`, s])) };
  return conditionalUpdate(db, ws, callId, {
    // The claim is the stream's first heartbeat: it enters the live-stream index at once.
    set: { streamStartedAt: now, streamSeenAt: now, ...key.liveStreamIndex(callId, now), streamSid, providerCallSid: callSid, updatedAt: now },
    condition:
      'attribute_not_exists(streamStartedAt) AND attribute_not_exists(settledAt) AND ' +
      `(attribute_not_exists(providerCallSid) OR providerCallSid = :sid) AND NOT (#st IN (${terminal.map((_, i) => `:t${i}`).join(', ')}))`,
    names: { '#st': 'status' },
    values,
    claim: 'streamClaim',
  });
}

export type WebClaimOutcome = { readonly kind: 'claimed'; readonly call: Call } | { readonly kind: 'insufficient' } | { readonly kind: 'ended' };

/**
 * Claims a browser call (a meeting) for its first socket and takes its reservation, in ONE transaction:
 * the conditional debit, the reservation's ledger entry, and the live call's claim (only while no socket
 * was claimed for it and it is neither ended nor settled). The meeting link only checked the balance: the
 * credits are held from the moment someone is actually in the call, as a phone call's are from dialing.
 */
export async function claimWebStream(db: Db, ws: string, callId: string, streamSid: string, reserved: number, now: string): Promise<WebClaimOutcome> {
  const terminal = [...TERMINAL_CALL_STATES];
  const { failedIndex } = await transact(db, [
    debitItem(db, ws, reserved),
    ledgerItem(db, ws, { id: callLedgerId(callId, 'reserve'), amount: -reserved, reason: 'call_reservation', callId, createdAt: now }),
    {
      Update: {
        TableName: db.table,
        Key: key.liveCall(ws, callId),
        UpdateExpression:
          'SET #started = :now, #seen = :now, #gpk = :gpk, #gsk = :gsk, #sid = :sid, #reserved = :reserved, #st = :inprogress, #u = :now',
        // A widget call whose pending lease ran out is not claimed (docs/widget.md, abuse limits).
        ConditionExpression:
          `attribute_exists(pk) AND attribute_not_exists(#started) AND attribute_not_exists(settledAt) AND #reserved = :zero AND #type <> :chat AND ` +
          `(attribute_not_exists(#claimBy) OR #claimBy > :now) AND NOT (#st IN (${terminal.map((_, i) => `:t${i}`).join(', ')}))`,
        ExpressionAttributeNames: {
          '#started': 'streamStartedAt',
          '#seen': 'streamSeenAt',
          '#gpk': 'gsi1pk',
          '#gsk': 'gsi1sk',
          '#sid': 'streamSid',
          '#reserved': 'reserved',
          '#st': 'status',
          '#u': 'updatedAt',
          '#type': 'agentType',
          '#claimBy': 'widgetClaimBy',
        },
        ExpressionAttributeValues: {
          ':chat': 'chat',
          ':now': now,
          ':gpk': key.liveStreamIndex(callId, now).gsi1pk,
          ':gsk': now,
          ':sid': streamSid,
          ':reserved': reserved,
          ':zero': 0,
          ':inprogress': 'in-progress',
          ...Object.fromEntries(terminal.map((s, i) => [`:t${i}`, s])),
        },
      },
    },
  ]);
  if (failedIndex === 0) return { kind: 'insufficient' };
  // The ledger entry exists (a reservation was taken for this call before) or the claim's condition failed.
  if (failedIndex !== undefined) return { kind: 'ended' };
  const call = await findCall(db, ws, callId);
  return call ? { kind: 'claimed', call } : { kind: 'ended' };
}

/**
 * Claims a text chat for its first socket (docs/chat.md): initiated → in-progress, once. Not a stream: a
 * chat holds no reservation (each message is charged as it comes), so the sweep of abandoned streams must
 * never see it. Undefined when it was claimed before, has ended, is not a chat, or is a widget chat whose
 * pending lease ran out (`widgetClaimBy` passed).
 */
export const claimChatCall = (db: Db, ws: string, callId: string, now: string): Promise<Call | undefined> =>
  conditionalUpdate(db, ws, callId, {
    set: { status: 'in-progress', chatStartedAt: now, updatedAt: now },
    condition: '#type = :chat AND #st = :initiated AND (attribute_not_exists(#claimBy) OR #claimBy > :now)',
    names: { '#type': 'agentType', '#st': 'status', '#claimBy': 'widgetClaimBy' },
    values: { ':chat': 'chat', ':initiated': 'initiated', ':now': now },
  });

/** Ends a claimed chat with what its messages cost, once; undefined when it had ended already. */
export const endChatCall = (db: Db, ws: string, callId: string, end: { endReason: CallEndReason; cost: number; now: string }): Promise<Call | undefined> =>
  conditionalUpdate(db, ws, callId, {
    set: { status: 'completed', endReason: end.endReason, cost: end.cost, settledAt: end.now, updatedAt: end.now },
    condition: '#type = :chat AND attribute_not_exists(settledAt)',
    names: { '#type': 'agentType' },
    values: { ':chat': 'chat' },
  });

/**
 * A live stream's heartbeat: records that stream `streamSid` of the call was still running at `now` (and
 * moves its live-stream index entry). Only while the call is unsettled: undefined once it was settled, by
 * this stream's end or by the sweep of abandoned streams (which took the stream for dead).
 */
export const heartbeatStream = (db: Db, ws: string, callId: string, streamSid: string, now: string): Promise<Call | undefined> =>
  conditionalUpdate(db, ws, callId, {
    // The index keys are written each time, so a stream claimed before the index existed joins it too.
    set: { streamSeenAt: now, ...key.liveStreamIndex(callId, now) },
    condition: 'streamSid = :sid AND attribute_not_exists(settledAt)',
    values: { ':sid': streamSid },
  });

/**
 * Live streams whose last heartbeat is older than `seenBefore` (ISO 8601), oldest first per shard, at most
 * `limit`: the candidates of the sweep. Reads only the stale entries of the sparse live-stream index, never
 * the table. The index is eventually consistent: the settlement re-checks the heartbeat it read.
 */
export const findStaleStreams = (db: Db, seenBefore: string, limit: number): Promise<Call[]> =>
  findInShards(db, liveStreamShard, seenBefore, limit);

/**
 * Dialed, never-streamed, unsettled calls dialed (or last found live) before `before`, at most `limit`: the
 * candidates of the lost-callback reconciliation, from the sparse dialed-call index, never the table. The
 * index is eventually consistent: the reconciliation re-checks each call it acts on.
 */
export const findQuietDialedCalls = (db: Db, before: string, limit: number): Promise<Call[]> =>
  findInShards(db, dialedCallShard, before, limit);

/** The entries of a sharded GSI1 collection sorted before `before`, oldest first per shard, at most `limit`. */
async function findInShards(db: Db, shardKey: (n: number) => string, before: string, limit: number): Promise<Call[]> {
  const found: Call[] = [];
  for (let shard = 0; shard < LIVE_STREAM_SHARDS && found.length < limit; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.table,
          IndexName: GSI1,
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
          ExpressionAttributeValues: { ':pk': shardKey(shard), ':before': before },
          Limit: limit - found.length,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of out.Items ?? []) found.push(fromItem<Call>(item));
      start = out.LastEvaluatedKey;
    } while (start && found.length < limit);
  }
  return found;
}

export type SettleOutcome =
  | { readonly kind: 'settled'; readonly call: Call }
  | { readonly kind: 'already'; readonly call: Call }
  /** Refused because the call's stream is live: its end settles it with the duration it measured. */
  | { readonly kind: 'streaming'; readonly call: Call }
  | { readonly kind: 'missing' };

/**
 * Settles a call's reservation: charges `cost` (at most what was reserved) for `billedSeconds` and gives
 * the rest back, with the settlement's ledger entry, in one transaction conditioned on the call not being
 * settled yet. A second settlement changes nothing and reports the first one's cost. `unlessStreamed`
 * (status callbacks) also conditions it on no stream ever having been claimed for the call.
 */
export async function settleReservation(
  db: Db,
  ws: string,
  callId: string,
  charge: {
    cost: number;
    billedSeconds: number;
    /** The parts of `cost`, kept beside it for the history record. */
    breakdown?: CostBreakdown;
    unlessStreamed?: boolean;
    /**
     * The sweep of abandoned streams: settle only while the stream's last heartbeat is still this one (the
     * one its duration was measured to), so a stream that proved alive in the meantime is left alone.
     */
    ifStreamSeenAt?: string;
  },
  endReason: CallEndReason | undefined,
  now: string,
  /** The call as the caller just read or wrote it (the transaction's conditions hold either way); read here when absent. */
  known?: Call,
): Promise<SettleOutcome> {
  const call = known ?? (await findCall(db, ws, callId));
  if (!call) return { kind: 'missing' };
  if (call.settledAt !== undefined) return { kind: 'already', call };
  if (charge.unlessStreamed && call.streamStartedAt !== undefined) return { kind: 'streaming', call };
  if (charge.ifStreamSeenAt !== undefined && call.streamSeenAt !== charge.ifStreamSeenAt) return { kind: 'streaming', call };
  const charged = Math.min(Math.max(0, charge.cost), call.reserved);
  const release = Math.round((call.reserved - charged) * 10_000) / 10_000;
  const names: Record<string, string> = { '#settledAt': 'settledAt', '#cost': 'cost', '#b': 'billedSeconds', '#u': 'updatedAt' };
  const values: Record<string, unknown> = { ':now': now, ':cost': charged, ':b': charge.billedSeconds };
  let moreSets = '';
  let seenCondition = '';
  if (charge.ifStreamSeenAt !== undefined) {
    names['#seen'] = 'streamSeenAt';
    values[':seen'] = charge.ifStreamSeenAt;
    seenCondition = ' AND #seen = :seen';
  }
  if (endReason) {
    names['#er'] = 'endReason';
    values[':er'] = endReason;
    // A reason already recorded (by the state machine) is the more specific one; keep it.
    moreSets += ', #er = if_not_exists(#er, :er)';
  }
  if (charge.breakdown) {
    names['#cb'] = 'costBreakdown';
    values[':cb'] = charge.breakdown;
    moreSets += ', #cb = :cb';
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: db.table,
        Key: key.liveCall(ws, callId),
        // A settled call leaves the live-stream or dialed-call index (the sweeps'), whoever settled it.
        UpdateExpression: `SET #settledAt = :now, #cost = :cost, #b = :b, #u = :now${moreSets} REMOVE gsi1pk, gsi1sk`,
        // The stream may be claimed (or beat) between the read above and this write: the condition decides.
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(#settledAt)${charge.unlessStreamed ? ' AND attribute_not_exists(streamStartedAt)' : ''}${seenCondition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ledgerItem(db, ws, { id: callLedgerId(callId, 'settle'), amount: release, reason: 'call_settlement', callId, createdAt: now }),
  ];
  if (release > 0) items.push(creditItem(db, ws, release));
  const { failedIndex } = await transact(db, items);
  const after = await findCall(db, ws, callId);
  if (!after) return { kind: 'missing' };
  if (failedIndex === undefined) return { kind: 'settled', call: after };
  return after.settledAt === undefined && after.streamStartedAt !== undefined ? { kind: 'streaming', call: after } : { kind: 'already', call: after };
}
