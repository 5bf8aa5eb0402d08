import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './dynamo.js';
import type { TransactItem } from './credits.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/**
 * Widget sessions open on a key (docs/widget.md, abuse limits): one lease item per session, under the key's
 * hash, with the visitor it was taken for (a hash of key and address). A lease starts **pending**, expiring
 * within seconds; the session's first socket confirms it for the session's length; the session's end
 * removes it. Counting is a query of the key's unexpired leases, then a put: two sessions starting at the
 * same instant can both pass, so a limit can be exceeded by the sessions racing, never by more.
 */

/** How many sessions a key may have open, in all and per visitor. */
export interface LeaseLimits {
  readonly perKey: number;
  readonly perVisitor: number;
}

/** A lease taken, or refused with the limit that refused it and when a place frees at the latest. */
export type LeaseOutcome = { readonly taken: true } | { readonly taken: false; readonly scope: 'key' | 'visitor'; readonly freesAtMs: number };

interface OpenLease {
  readonly expiresAtMs: number;
  readonly visitor?: string;
}

/** The key's leases unexpired at `nowMs`. */
async function openLeases(db: Db, keyHash: string, nowMs: number): Promise<OpenLease[]> {
  const open: OpenLease[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :lease)',
        FilterExpression: 'expiresAtMs > :now',
        ProjectionExpression: 'expiresAtMs, visitor',
        ExpressionAttributeValues: { ':pk': key.widgetLease(keyHash, '').pk, ':lease': 'LEASE#', ':now': nowMs },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) open.push({ expiresAtMs: Number(item.expiresAtMs), visitor: item.visitor as string | undefined });
    start = out.LastEvaluatedKey;
  } while (start);
  return open;
}

/**
 * When the first place frees among `leases` held against `limit` (at least `limit` of them): the expiry that
 * brings their count under the limit (a session ending frees one sooner).
 */
const freesAt = (leases: readonly OpenLease[], limit: number): number =>
  leases.map((l) => l.expiresAtMs).sort((a, b) => a - b)[leases.length - limit]!;

/**
 * Takes a pending lease for session `callId` of `visitor`, expiring at `expiresAtMs`, unless the visitor
 * or the key has its maximum open.
 */
export async function takeWidgetLease(
  db: Db,
  keyHash: string,
  callId: string,
  visitor: string,
  limits: LeaseLimits,
  expiresAtMs: number,
  nowMs: number = Date.now(),
): Promise<LeaseOutcome> {
  const open = await openLeases(db, keyHash, nowMs);
  const visitors = open.filter((l) => l.visitor === visitor);
  if (visitors.length >= limits.perVisitor) return { taken: false, scope: 'visitor', freesAtMs: freesAt(visitors, limits.perVisitor) };
  if (open.length >= limits.perKey) return { taken: false, scope: 'key', freesAtMs: freesAt(open, limits.perKey) };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...key.widgetLease(keyHash, callId), entity: ENTITY.widgetLease, v: TABLE_SCHEMA_VERSION, visitor, pending: true, expiresAtMs, ttl: Math.ceil(expiresAtMs / 1000) },
    }),
  );
  return { taken: true };
}

/**
 * The session's socket opened: its lease now runs until `expiresAtMs` (the session's longest end). False
 * when there is no lease to confirm (the session ended and released it).
 */
export async function confirmWidgetLease(db: Db, keyHash: string, callId: string, expiresAtMs: number): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.widgetLease(keyHash, callId),
        UpdateExpression: 'SET expiresAtMs = :exp, #ttl = :ttl REMOVE pending',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':exp': expiresAtMs, ':ttl': Math.ceil(expiresAtMs / 1000) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The session ended: its lease no longer counts. One item of the end's own transaction (it settles and releases at once). */
export const releaseLeaseItem = (db: Db, keyHash: string, callId: string): TransactItem => ({
  Delete: { TableName: db.table, Key: key.widgetLease(keyHash, callId) },
});
