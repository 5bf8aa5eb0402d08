import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Call } from '../domain/call.js';
import { balanceStanding, callLedgerId, debitItem, ledgerItem, type TransactItem } from './credits.js';
import { transact, type Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/**
 * Writing a new call (`WS#<ws>/LIVECALL#<callId>`): with its reservation in one transaction (outbound,
 * inbound), or without one (meeting links), and the keys that make a retried start find the first one (an
 * Idempotency-Key's answer, a provider call's sid). Its later states are lib/store/calls.ts.
 */

/** The first answer stored under an `Idempotency-Key`, with when it may be forgotten. */
export interface IdempotencyRecord {
  readonly keyHash: string;
  /** SHA-256 of the request body, so the same key with a different request is refused. */
  readonly requestHash: string;
  readonly answer: Record<string, unknown>;
  /** Epoch seconds. */
  readonly expiresAt: number;
}

export type CreateCallOutcome =
  | { readonly kind: 'created' }
  | { readonly kind: 'insufficient' }
  /** The destination is on the workspace's do-not-call list (asked for with `doNotCall`). */
  | { readonly kind: 'do_not_call' }
  | { readonly kind: 'duplicate'; readonly record: IdempotencyRecord };

const callItem = (call: Call) => ({ ...key.liveCall(call.workspaceId, call._id), entity: ENTITY.liveCall, v: TABLE_SCHEMA_VERSION, ...call });

/**
 * A new call with its reservation: the conditional debit, the reservation's ledger entry and the call, which
 * is in the live-call index from the start (a phone call is under way from the API's answer).
 */
const reservationItems = (db: Db, call: Call): TransactItem[] => [
  debitItem(db, call.workspaceId, call.reserved),
  ledgerItem(db, call.workspaceId, {
    id: callLedgerId(call._id, 'reserve'),
    amount: -call.reserved,
    reason: 'call_reservation',
    callId: call._id,
    createdAt: call.createdAt,
  }),
  {
    Put: {
      TableName: db.table,
      Item: { ...callItem(call), ...key.liveCallIndex(call.workspaceId, call._id) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
];

/**
 * Creates a call and takes its reservation in ONE transaction: the idempotency claim (when a key was
 * sent), with `doNotCall` the check that the destination is not on the workspace's do-not-call list, the
 * conditional debit, the reservation's ledger entry and the call. Nothing is written unless all of it is.
 * The idempotency claim comes first so a retried request reports "duplicate", not whatever else would also
 * fail; the list comes before the balance, so a listed number is refused as such whatever the credits.
 */
export async function createCallWithReservation(
  db: Db,
  call: Call,
  idempotency?: IdempotencyRecord,
  nowMs: number = Date.now(),
  options: { readonly doNotCall?: boolean } = {},
): Promise<CreateCallOutcome> {
  const items: TransactItem[] = [];
  if (idempotency) {
    items.push({
      Put: {
        TableName: db.table,
        Item: {
          ...key.idempotency(call.workspaceId, idempotency.keyHash),
          entity: ENTITY.idempotency,
          v: TABLE_SCHEMA_VERSION,
          requestHash: idempotency.requestHash,
          answer: idempotency.answer,
          ttl: idempotency.expiresAt,
        },
        // An expired claim may still be there (TTL deletion lags by up to days): it no longer counts.
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':now': Math.floor(nowMs / 1000) },
      },
    });
  }
  const dncIndex = options.doNotCall ? items.length : undefined;
  if (options.doNotCall) {
    items.push({ ConditionCheck: { TableName: db.table, Key: key.dnc(call.workspaceId, call.to), ConditionExpression: 'attribute_not_exists(pk)' } });
  }
  const debitIndex = items.length;
  items.push(...reservationItems(db, call));
  const balance = balanceStanding(db, call.workspaceId, call.reserved, debitIndex);
  const { failedIndex } = await transact(db, items, {
    // A retried request is a duplicate before it is anything else, as when both conditions fail at once.
    standing: async () => (idempotency && (await findIdempotencyRecord(db, call.workspaceId, idempotency.keyHash, nowMs)) ? { lostAt: 0 } : balance()),
  });
  if (failedIndex === undefined) return { kind: 'created' };
  if (idempotency && failedIndex === 0) {
    const record = await findIdempotencyRecord(db, call.workspaceId, idempotency.keyHash, nowMs);
    // Expired between the two reads: vanishingly rare; the caller may simply retry.
    if (!record) throw new Error('Idempotency record vanished; retry the request');
    return { kind: 'duplicate', record };
  }
  if (failedIndex === dncIndex) return { kind: 'do_not_call' };
  if (failedIndex === debitIndex) return { kind: 'insufficient' };
  throw new Error(`Call ${call._id} could not be created (condition ${failedIndex} failed)`);
}

export type CreateInboundOutcome =
  | { readonly kind: 'created' }
  | { readonly kind: 'insufficient' }
  /** The provider call already became one of ours (Twilio retried the voice webhook, or it was replayed). */
  | { readonly kind: 'duplicate' };

/** How long the provider-call lookup outlives the call: well past any late status callback. */
const PROVIDER_CALL_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * Creates an inbound call with its reservation in ONE transaction: the provider call's lookup item (one per
 * call sid, so a retried or replayed voice webhook cannot reserve or admit twice), the conditional debit,
 * the reservation's ledger entry and the call.
 */
export async function createInboundCall(db: Db, call: Call, callSid: string, nowMs: number = Date.now()): Promise<CreateInboundOutcome> {
  const { failedIndex } = await transact(db, [
    {
      Put: {
        TableName: db.table,
        Item: {
          ...key.providerCall(callSid),
          entity: ENTITY.providerCall,
          v: TABLE_SCHEMA_VERSION,
          workspaceId: call.workspaceId,
          callId: call._id,
          ttl: Math.floor(nowMs / 1000) + PROVIDER_CALL_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...reservationItems(db, call),
  ], { standing: async () => ((await findCallByProviderSid(db, callSid)) ? { lostAt: 0 } : balanceStanding(db, call.workspaceId, call.reserved, 1)()) });
  if (failedIndex === undefined) return { kind: 'created' };
  if (failedIndex === 0) return { kind: 'duplicate' };
  if (failedIndex === 1) return { kind: 'insufficient' };
  throw new Error(`Inbound call ${call._id} could not be created (condition ${failedIndex} failed)`);
}

/** The call an inbound provider call became, if any (status callbacks of inbound calls carry only the sid). */
export async function findCallByProviderSid(db: Db, callSid: string): Promise<{ workspaceId: string; callId: string } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.providerCall(callSid), ConsistentRead: true }));
  return out.Item ? { workspaceId: String(out.Item.workspaceId), callId: String(out.Item.callId) } : undefined;
}

/** The live answer stored under a key, unless it has expired. */
export async function findIdempotencyRecord(db: Db, ws: string, keyHash: string, nowMs: number = Date.now()): Promise<IdempotencyRecord | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.idempotency(ws, keyHash), ConsistentRead: true }));
  const item = out.Item;
  if (!item || Number(item.ttl) < Math.floor(nowMs / 1000)) return undefined;
  return { keyHash, requestHash: String(item.requestHash), answer: item.answer as Record<string, unknown>, expiresAt: Number(item.ttl) };
}

/**
 * Writes a call without a reservation (meeting links: the credit check happens, the session reserves). It
 * joins the live-call index only when its session is claimed (lib/store/web-calls.ts): a link nobody opens
 * is not a call in progress.
 */
export async function putNewCall(db: Db, call: Call, extra: TransactItem[] = []): Promise<void> {
  await transact(db, [{ Put: { TableName: db.table, Item: callItem(call), ConditionExpression: 'attribute_not_exists(pk)' } }, ...extra]);
}


/** Forgets the answer stored under a key (a start that failed after its transaction), so a retry starts afresh. */
export async function forgetIdempotencyRecord(db: Db, ws: string, keyHash: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.idempotency(ws, keyHash) }));
}
