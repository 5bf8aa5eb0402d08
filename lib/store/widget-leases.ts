import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/**
 * Widget sessions open on a key (docs/widget.md, abuse limits): one lease item per session, under the key's
 * hash, removed when the session ends and otherwise expiring when the session could no longer be running.
 * Counting is a query of the key's unexpired leases, then a put: two sessions starting at the same instant
 * can both pass, so the limit can be exceeded by the sessions racing, never by more.
 */

/** How many of the key's leases are unexpired at `nowMs`. */
async function openLeases(db: Db, keyHash: string, nowMs: number): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :lease)',
        FilterExpression: 'expiresAtMs > :now',
        ExpressionAttributeValues: { ':pk': key.widgetLease(keyHash, '').pk, ':lease': 'LEASE#', ':now': nowMs },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

/** Takes a lease for session `callId` unless `limit` are open already; false when refused. */
export async function takeWidgetLease(db: Db, keyHash: string, callId: string, limit: number, expiresAtMs: number, nowMs: number = Date.now()): Promise<boolean> {
  if ((await openLeases(db, keyHash, nowMs)) >= limit) return false;
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...key.widgetLease(keyHash, callId), entity: ENTITY.widgetLease, v: TABLE_SCHEMA_VERSION, expiresAtMs, ttl: Math.ceil(expiresAtMs / 1000) },
    }),
  );
  return true;
}

/** The session ended: its lease no longer counts. */
export async function releaseWidgetLease(db: Db, keyHash: string, callId: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.widgetLease(keyHash, callId) }));
}
