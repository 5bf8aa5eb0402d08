import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { statesBefore, TERMINAL_CALL_STATES, type Call, type CallState } from '../domain/call.js';
import type { CallEndReason } from '../domain/history.js';
import type { Db } from './dynamo.js';
import { KEYS, fromItem, key } from './model.js';

/**
 * The live call records (`WS#<ws>/LIVECALL#<callId>`): their reads and state moves (a new call is written
 * by call-creation.ts, a browser call's or chat's claim by web-calls.ts, the settlement by
 * call-settlement.ts, the sweeps' index queries by call-indexes.ts).
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
export async function conditionalUpdate(
  db: Db,
  ws: string,
  callId: string,
  update: {
    set: Record<string, unknown>;
    condition: string;
    values?: Record<string, unknown>;
    names?: Record<string, string>;
    claim?: string;
    /** Attributes set only where absent (a first answer's time). */
    setIfAbsent?: Record<string, unknown>;
    /** Attributes removed (index keys of an index the call leaves). */
    remove?: readonly string[];
  },
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
  const firstSets = Object.entries(update.setIfAbsent ?? {}).map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    return `#a${i} = if_not_exists(#a${i}, :a${i})`;
  });
  const removes = (update.remove ?? []).map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.liveCall(ws, callId),
        UpdateExpression: `SET ${[...sets, ...firstSets].join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
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
  const terminal = TERMINAL_CALL_STATES.has(next);
  if (terminal) set.endedAt = now;
  if (extra.endReason) set.endReason = extra.endReason;
  if (extra.providerCallSid) set.providerCallSid = extra.providerCallSid;
  const names: Record<string, string> = { '#st': 'status' };
  let condition = `#st IN (${Object.keys(values).join(', ')})`;
  if (extra.onlyForProviderCall && extra.providerCallSid) {
    condition += ' AND (attribute_not_exists(#pcs) OR #pcs = :pcs)';
    names['#pcs'] = 'providerCallSid';
    values[':pcs'] = extra.providerCallSid;
  }
  return conditionalUpdate(db, ws, callId, {
    set,
    condition,
    names,
    values,
    // An ended call leaves the live-call index (GET /api/calls); an answered one keeps when it was answered.
    ...(terminal ? { remove: LIVE_CALL_INDEX_KEYS } : {}),
    ...(next === 'in-progress' ? { setIfAbsent: { answeredAt: now } } : {}),
  });
}

/** The index attributes of the live-call index (GSI2), removed by every write that ends a call. */
export const LIVE_CALL_INDEX_KEYS: readonly string[] = [KEYS.gsi2pk, KEYS.gsi2sk];

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
    // A stream is opened on an answered call, even if the provider's in-progress callback is late.
    setIfAbsent: { answeredAt: now },
    condition:
      'attribute_not_exists(streamStartedAt) AND attribute_not_exists(settledAt) AND ' +
      `(attribute_not_exists(providerCallSid) OR providerCallSid = :sid) AND NOT (#st IN (${terminal.map((_, i) => `:t${i}`).join(', ')}))`,
    names: { '#st': 'status' },
    values,
    claim: 'streamClaim',
  });
}

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
 * Records which streaming task holds the call's stream (its internal address), so a control request or a
 * listener that reaches another task is forwarded to it (docs/live-calls.md). Only for the stream it names.
 */
export const recordStreamHost = (db: Db, ws: string, callId: string, streamSid: string, host: string): Promise<Call | undefined> =>
  conditionalUpdate(db, ws, callId, {
    set: { streamHost: host },
    condition: 'streamSid = :sid AND attribute_not_exists(settledAt)',
    values: { ':sid': streamSid },
  });
