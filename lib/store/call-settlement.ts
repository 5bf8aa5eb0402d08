import { statesBefore, type Call, type CostBreakdown } from '../domain/call.js';
import type { CallEndReason } from '../domain/history.js';
import { callLedgerId, creditItem, ledgerItem, type TransactItem } from './credits.js';
import { transact, type Db } from './dynamo.js';
import { key } from './model.js';
import { findCall } from './calls.js';
import { releaseLeaseItem } from './widget-leases.js';

/**
 * A live call's settlement (`WS#<ws>/LIVECALL#<callId>`, its ledger entry and the balance): the one write
 * that decides what a call cost, conditioned on it not having been settled, so no call is charged twice.
 */

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
 * (status callbacks) also conditions it on no stream ever having been claimed for the call. `complete`
 * (a connected call's end, or its sweep) also ends the call in the same transaction: `completed` (a call
 * already in a terminal state keeps it) with `endReason`, and with `releaseLease` its widget lease released.
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
    /** End the call with its settlement: `completed` with `endReason`. */
    complete?: boolean;
    /** With `complete`: also release a widget session's lease (a stream's own end; the sweep holds no delete grant). */
    releaseLease?: boolean;
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
  // Moved as advanceCall would: only from a state of lower rank (a status callback may have said `completed`).
  const completes = charge.complete === true && statesBefore('completed').includes(call.status);
  if (completes) {
    names['#st'] = 'status';
    names['#ended'] = 'endedAt';
    values[':completed'] = 'completed';
    moreSets += ', #st = :completed, #ended = :now';
  }
  if (endReason) {
    names['#er'] = 'endReason';
    values[':er'] = endReason;
    // A reason already recorded (by the state machine) is the more specific one; keep it. The stream's end
    // knows best how a call it completes ended.
    moreSets += completes ? ', #er = :er' : ', #er = if_not_exists(#er, :er)';
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
        // A settled call leaves the live-stream or dialed-call index (the sweeps'), whoever settled it, and
        // the live-call index (GET /api/calls): billed, it is over.
        UpdateExpression: `SET #settledAt = :now, #cost = :cost, #b = :b, #u = :now${moreSets} REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk`,
        // The stream may be claimed (or beat) between the read above and this write: the condition decides.
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(#settledAt)${charge.unlessStreamed ? ' AND attribute_not_exists(streamStartedAt)' : ''}${seenCondition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ledgerItem(db, ws, { id: callLedgerId(callId, 'settle'), amount: release, reason: 'call_settlement', callId, createdAt: now }),
  ];
  if (release > 0) items.push(creditItem(db, ws, release));
  // A widget call's session is over: its key may open another (docs/widget.md, abuse limits).
  if (charge.complete && charge.releaseLease && call.widgetKeyHash) items.push(releaseLeaseItem(db, call.widgetKeyHash, callId));
  const { failedIndex } = await transact(db, items);
  if (failedIndex === undefined && charge.complete) {
    // What the transaction wrote, on the call as read: the end needs no second read.
    return {
      kind: 'settled',
      call: {
        ...call,
        settledAt: now,
        cost: charged,
        billedSeconds: charge.billedSeconds,
        updatedAt: now,
        ...(endReason ? { endReason: completes ? endReason : (call.endReason ?? endReason) } : {}),
        ...(charge.breakdown ? { costBreakdown: charge.breakdown } : {}),
        ...(completes ? { status: 'completed' as const, endedAt: now } : {}),
      },
    };
  }
  const after = await findCall(db, ws, callId);
  if (!after) return { kind: 'missing' };
  if (failedIndex === undefined) return { kind: 'settled', call: after };
  return after.settledAt === undefined && after.streamStartedAt !== undefined ? { kind: 'streaming', call: after } : { kind: 'already', call: after };
}
