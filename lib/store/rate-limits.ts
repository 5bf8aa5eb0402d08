import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/** How long a window's item outlives its window before DynamoDB may delete it (deletion lags anyway). */
const WINDOW_ITEM_GRACE_SECONDS = 60;

/**
 * Counts `amount` requests (default one; an instance reserving a batch, lib/domain/rate-window.ts) in a
 * fixed rate-limit window with ONE conditional UpdateItem: the count goes up only while the whole amount
 * fits under `limit`, so a refused reservation is not counted and cannot push the window further. Every
 * Lambda instance shares the item, which is what makes the limit hold across instances.
 */
export async function countInWindow(
  db: Db,
  window: { policy: string; partition: string; startMs: number; windowSeconds: number; limit: number },
  amount = 1,
): Promise<{ allowed: boolean; count: number }> {
  // A fresh item takes any amount (no `n` to compare yet): more than the limit must never be asked for.
  if (!Number.isInteger(amount) || amount < 1 || amount > window.limit) throw new RangeError(`cannot reserve ${amount} of ${window.limit}`);
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.rateWindow(window.policy, window.partition, window.startMs),
        UpdateExpression: 'ADD #n :amount SET #ttl = if_not_exists(#ttl, :ttl), entity = :e, v = :v',
        ConditionExpression: 'attribute_not_exists(#n) OR #n <= :room',
        ExpressionAttributeNames: { '#n': 'n', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':amount': amount,
          ':room': window.limit - amount,
          ':ttl': Math.floor(window.startMs / 1000) + window.windowSeconds + WINDOW_ITEM_GRACE_SECONDS,
          ':e': ENTITY.rateWindow,
          ':v': TABLE_SCHEMA_VERSION,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { allowed: true, count: Number(out.Attributes?.n ?? amount) };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return { allowed: false, count: window.limit };
    throw error;
  }
}
