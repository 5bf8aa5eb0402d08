import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { transact, type Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/** How long a window's item outlives its window before DynamoDB may delete it (deletion lags anyway). */
const WINDOW_ITEM_GRACE_SECONDS = 60;

/** Adds `amount` to a window's count, only while the whole amount still fits under its limit. */
const addToWindow = (db: Db, w: CountedWindow, amount: number) => ({
  TableName: db.table,
  Key: key.rateWindow(w.policy, w.partition, w.startMs),
  UpdateExpression: 'ADD #n :amount SET #ttl = if_not_exists(#ttl, :ttl), entity = :e, v = :v',
  ConditionExpression: 'attribute_not_exists(#n) OR #n <= :room',
  ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
  ExpressionAttributeValues: {
    ':amount': amount,
    ':room': w.limit - amount,
    ':ttl': Math.floor(w.startMs / 1000) + w.windowSeconds + WINDOW_ITEM_GRACE_SECONDS,
    ':e': ENTITY.rateWindow,
    ':v': TABLE_SCHEMA_VERSION,
  },
});

/**
 * Counts `amount` requests (default one; an instance reserving a batch, lib/domain/rate-window.ts) in a
 * fixed rate-limit window with ONE conditional UpdateItem: the count goes up only while the whole amount
 * fits under `limit`, so a refused reservation is not counted and cannot push the window further. Every
 * Lambda instance shares the item, which is what makes the limit hold across instances.
 */
export async function countInWindow(
  db: Db,
  window: CountedWindow,
  amount = 1,
): Promise<{ allowed: boolean; count: number }> {
  // A fresh item takes any amount (no `n` to compare yet): more than the limit must never be asked for.
  if (!Number.isInteger(amount) || amount < 1 || amount > window.limit) throw new RangeError(`cannot reserve ${amount} of ${window.limit}`);
  try {
    const out = await db.doc.send(new UpdateCommand({ ...addToWindow(db, window, amount), ReturnValues: 'UPDATED_NEW' }));
    return { allowed: true, count: Number(out.Attributes?.n ?? amount) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { allowed: false, count: window.limit };
    throw error;
  }
}

/** One fixed window of one policy and partition, as counted in the table. */
export interface CountedWindow {
  readonly policy: string;
  readonly partition: string;
  readonly startMs: number;
  readonly windowSeconds: number;
  readonly limit: number;
}

/** Races lost to other writers before a reservation gives up (and grants nothing). */
const MAX_RESERVE_TRIES = 5;

/**
 * Reserves the same number of units, up to `wanted`, in every window at once: the windows' counts are read,
 * the grant is what the fullest has room for, and one transaction adds it to each only while each still has
 * that room. A writer that took units in between makes the transaction fail; it is then tried again from
 * fresh counts. Returns the grant (0 when a window is full) and the counts after it.
 */
export async function reserveInWindows(db: Db, windows: readonly CountedWindow[], wanted: number): Promise<{ granted: number; counts: number[] }> {
  let counts: number[] = windows.map(() => 0);
  for (let tries = 0; tries < MAX_RESERVE_TRIES; tries += 1) {
    counts = await Promise.all(
      windows.map(async (w) => {
        const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.rateWindow(w.policy, w.partition, w.startMs), ConsistentRead: true }));
        return Number(out.Item?.n ?? 0);
      }),
    );
    const granted = Math.min(wanted, ...windows.map((w, i) => w.limit - counts[i]!));
    if (granted <= 0) return { granted: 0, counts };
    const { failedIndex } = await transact(
      db,
      windows.map((w) => ({ Update: addToWindow(db, w, granted) })),
    );
    if (failedIndex === undefined) return { granted, counts: counts.map((n) => n + granted) };
  }
  return { granted: 0, counts };
}
