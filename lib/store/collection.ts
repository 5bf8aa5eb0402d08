import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../domain/common.js';
import { NotFoundError } from '../domain/errors.js';
import { transact, queryPage, type Db, type PageRequest } from './dynamo.js';
import { COLLECTION, fromItem, key, type CountedEntity } from './model.js';

type Keys = { pk: string; sk: string };
type TransactItem = Parameters<typeof transact>[1][number];

/**
 * The shape every workspace-scoped, counted collection shares (agents, tools, contacts, calls): an item
 * under the workspace partition and a counter moved in the same transaction.
 */
export interface CollectionSpec {
  readonly entity: CountedEntity;
  /** Human name used in 404 messages, for example "Agent". */
  readonly label: string;
  readonly itemKey: (ws: string, id: string) => Keys;
}

const counterDelta = (db: Db, ws: string, entity: CountedEntity, delta: number): TransactItem => ({
  Update: {
    TableName: db.table,
    Key: key.counter(ws, entity),
    UpdateExpression: 'ADD #n :d SET entity = :e',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':d': delta, ':e': 'counter' },
  },
});

/** The two writes of an insert: the new item (never overwriting) and its counter's increment. */
export const insertItems = (db: Db, spec: CollectionSpec, ws: string, item: Record<string, unknown>): TransactItem[] => [
  { Put: { TableName: db.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
  counterDelta(db, ws, spec.entity, 1),
];

/** Puts a new item (never overwriting) and increments its counter; `extra` joins the same transaction. */
export async function insertCounted(
  db: Db,
  spec: CollectionSpec,
  ws: string,
  item: Record<string, unknown>,
  extra: TransactItem[] = [],
): Promise<{ failedIndex?: number }> {
  return transact(db, [...extra, ...insertItems(db, spec, ws, item)]);
}

/** Deletes an item that must exist and decrements its counter; 404 when it is not there. */
export async function deleteCounted(
  db: Db,
  spec: CollectionSpec,
  ws: string,
  id: string,
  extra: TransactItem[] = [],
): Promise<void> {
  const { failedIndex } = await transact(db, [
    {
      Delete: {
        TableName: db.table,
        Key: spec.itemKey(ws, id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    ...extra,
    counterDelta(db, ws, spec.entity, -1),
  ]);
  if (failedIndex !== undefined) throw new NotFoundError(spec.label);
}

/** Strongly consistent read of one record, or undefined. */
export async function getRecord<T>(db: Db, spec: CollectionSpec, ws: string, id: string): Promise<T | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: spec.itemKey(ws, id), ConsistentRead: true }));
  return out.Item ? fromItem<T>(out.Item) : undefined;
}

/** Like {@link getRecord}, but a missing record is a 404. */
export async function requireRecord<T>(db: Db, spec: CollectionSpec, ws: string, id: string): Promise<T> {
  const found = await getRecord<T>(db, spec, ws, id);
  if (!found) throw new NotFoundError(spec.label);
  return found;
}

/** The record count kept by the counter item. */
export async function countOf(db: Db, ws: string, entity: CountedEntity): Promise<number> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.counter(ws, entity) }));
  return Math.max(0, Number(out.Item?.n ?? 0));
}

/** One unfiltered page, newest first; `total` from the counter, read in parallel with the page. */
export async function listCounted<T>(db: Db, spec: CollectionSpec, ws: string, req: PageRequest): Promise<Page<T>> {
  const [items, total] = await Promise.all([
    queryPage(
      db,
      {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': COLLECTION[spec.entity] },
      },
      req,
    ),
    countOf(db, ws, spec.entity),
  ]);
  return { data: items.map((i) => fromItem<T>(i)), total, page: req.page, limit: req.limit };
}

/**
 * A filtered page: reads the collection inside the workspace partition only, counts every match for
 * `total`, and keeps the requested slice.
 */
export async function pageOfMatches<T>(
  source: AsyncIterable<Record<string, unknown>>,
  req: PageRequest,
): Promise<Page<T>> {
  const from = (req.page - 1) * req.limit;
  const data: T[] = [];
  let total = 0;
  for await (const item of source) {
    if (total >= from && data.length < req.limit) data.push(fromItem<T>(item));
    total += 1;
  }
  return { data, total, page: req.page, limit: req.limit };
}
