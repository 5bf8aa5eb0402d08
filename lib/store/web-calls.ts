import { TERMINAL_CALL_STATES, type Call } from '../domain/call.js';
import type { CallEndReason } from '../domain/history.js';
import { callLedgerId, debitItem, ledgerItem } from './credits.js';
import { transact, type Db } from './dynamo.js';
import { key } from './model.js';
import { conditionalUpdate, findCall } from './calls.js';
import { releaseLeaseItem } from './widget-leases.js';

/** The claims of browser calls (meetings, widget voice) and text chats, and a chat's end: writes to the live call. */

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
          'SET #started = :now, #seen = :now, #gpk = :gpk, #gsk = :gsk, #lpk = :lpk, #lsk = :lsk, #answered = :now, #sid = :sid, #reserved = :reserved, #st = :inprogress, #u = :now',
        // A widget call whose pending lease ran out is not claimed (docs/widget.md, abuse limits).
        ConditionExpression:
          `attribute_exists(pk) AND attribute_not_exists(#started) AND attribute_not_exists(settledAt) AND #reserved = :zero AND #type <> :chat AND ` +
          `(attribute_not_exists(#claimBy) OR #claimBy > :now) AND NOT (#st IN (${terminal.map((_, i) => `:t${i}`).join(', ')}))`,
        ExpressionAttributeNames: {
          '#started': 'streamStartedAt',
          '#seen': 'streamSeenAt',
          '#gpk': 'gsi1pk',
          '#gsk': 'gsi1sk',
          // Someone is in the call: it joins the live-call index (GET /api/calls) until it is settled.
          '#lpk': 'gsi2pk',
          '#lsk': 'gsi2sk',
          '#answered': 'answeredAt',
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
          ':lpk': key.liveCallIndex(ws, callId).gsi2pk,
          ':lsk': key.liveCallIndex(ws, callId).gsi2sk,
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
    // The chat is under way: in the live-call index (GET /api/calls) until it ends.
    set: { status: 'in-progress', chatStartedAt: now, answeredAt: now, ...key.liveCallIndex(ws, callId), updatedAt: now },
    condition: '#type = :chat AND #st = :initiated AND (attribute_not_exists(#claimBy) OR #claimBy > :now)',
    names: { '#type': 'agentType', '#st': 'status', '#claimBy': 'widgetClaimBy' },
    values: { ':chat': 'chat', ':initiated': 'initiated', ':now': now },
  });

/**
 * Ends a claimed chat with what its messages cost, once, and releases a widget chat's lease in the same
 * transaction; undefined when it had ended already (or is not a chat).
 */
export async function endChatCall(db: Db, ws: string, callId: string, end: { endReason: CallEndReason; cost: number; now: string }): Promise<Call | undefined> {
  const call = await findCall(db, ws, callId);
  if (!call || call.agentType !== 'chat' || call.settledAt !== undefined) return undefined;
  const { failedIndex } = await transact(db, [
    {
      Update: {
        TableName: db.table,
        Key: key.liveCall(ws, callId),
        UpdateExpression: 'SET #st = :completed, #er = :er, #cost = :cost, #settled = :now, #u = :now REMOVE gsi2pk, gsi2sk',
        // The read above may be stale: a second end racing this one fails here.
        ConditionExpression: 'attribute_exists(pk) AND #type = :chat AND attribute_not_exists(#settled)',
        ExpressionAttributeNames: { '#st': 'status', '#er': 'endReason', '#cost': 'cost', '#settled': 'settledAt', '#u': 'updatedAt', '#type': 'agentType' },
        ExpressionAttributeValues: { ':completed': 'completed', ':er': end.endReason, ':cost': end.cost, ':now': end.now, ':chat': 'chat' },
      },
    },
    // A widget chat's session is over: its key may open another (docs/widget.md, abuse limits).
    ...(call.widgetKeyHash ? [releaseLeaseItem(db, call.widgetKeyHash, callId)] : []),
  ]);
  if (failedIndex !== undefined) return undefined;
  return { ...call, status: 'completed', endReason: end.endReason, cost: end.cost, settledAt: end.now, updatedAt: end.now };
}
