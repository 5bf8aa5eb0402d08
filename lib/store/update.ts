import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NotFoundError } from '../domain/errors.js';
import { fromItem } from './model.js';
import type { Db } from './dynamo.js';

/**
 * Sets the given attributes on an existing item and returns the whole new item; 404 when the item is
 * missing. Undefined values are left alone, so a partial update changes only what was sent.
 */
export async function updateExisting<T>(
  db: Db,
  itemKey: { pk: string; sk: string },
  changes: Record<string, unknown>,
  label: string,
): Promise<T> {
  // Attribute names travel only as values of ExpressionAttributeNames, under placeholders of our own
  // (#a0, :v0), so no name, whatever its text, reaches the expression or a prototype lookup.
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = entries.map(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:v${i}`] = v;
    return `#a${i} = :v${i}`;
  });
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: itemKey,
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem<T>(out.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError(label);
    throw error;
  }
}
