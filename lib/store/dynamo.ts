import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** What every access pattern needs: the document client and the table name. */
export interface Db {
  readonly doc: DynamoDBDocumentClient;
  readonly table: string;
  /** The clock {@link transact}'s retries read and wait on; the real one when absent. */
  readonly retryClock?: RetryClock;
}

/** Time as a retry loop sees it: tests give a virtual one, whose waits end at once (test/support/faults.ts). */
export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: RetryClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

export interface DbOptions {
  readonly table: string;
  readonly region: string;
  /** DynamoDB Local's URL; omitted on AWS. */
  readonly endpoint?: string;
}

/**
 * How items are turned into DynamoDB attribute values. The SDK decides that a value is a map by reading
 * `value.constructor.name === "Object"`; a map that holds a user key `constructor` (an external field, a
 * tool header) shadows that and the marshaller throws. `convertClassInstanceToMap` makes every remaining
 * object a map, so any key a user can type is stored as written. Nothing stored here is a class instance.
 */
export const MARSHALL_OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: true } as const;

export function createDb(options: DbOptions): Db {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    // A stuck connection must not eat the Lambda's whole budget; DynamoDB answers in milliseconds.
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });
  return {
    // A copy: the document client writes its own defaults into the options object it is given
    // (`convertTopLevelContainer`), which turned every later `marshall(item, MARSHALL_OPTIONS)` in the
    // process into a wrapped map.
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { ...MARSHALL_OPTIONS } }),
    table: options.table,
  };
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export interface TransactOptions {
  /**
   * Asked after each conflict: the index of an item whose condition can no longer hold, so the transaction
   * would fail on it whoever wins the race, or undefined to try again. A burst of writers that spent a
   * balance between them gets its answer (out of credits) instead of retries it cannot win.
   */
  readonly lostAt?: () => Promise<number | undefined>;
}

/** How long {@link transact} retries a transaction that keeps meeting others on its items. */
export const TRANSACT_RETRY_BUDGET_MS = 6_000;
/** The longest wait between two tries (full jitter below it). */
const MAX_TRANSACT_BACKOFF_MS = 1_000;

/**
 * Runs a transaction, retrying when another transaction touched the same items (counters are shared by
 * every write in a workspace). A failed condition comes back as the index of the first failed item.
 */
export async function transact(db: Db, items: TransactItems, options: TransactOptions = {}): Promise<{ failedIndex?: number }> {
  // A burst of writers on one item (a workspace's balance) must drain before `lostAt` can answer the rest:
  // spending a balance of 10 reservations among 100 concurrent calls took more than 8 tries, and on a loaded
  // CI machine more than 16, for some writers (each answered 429 though the balance was soon spent). So the
  // retries are bounded by time, not count, and the back-off keeps growing (to 1 s) so a crowd spreads out
  // instead of colliding again: TRANSACT_RETRY_BUDGET_MS, well inside a route's 10 s Lambda timeout.
  const clock = db.retryClock ?? REAL_CLOCK;
  const startedMs = clock.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return {};
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) return { failedIndex };
      if (!reasons.some((r) => r.Code === 'TransactionConflict')) throw error;
      const lost = await options.lostAt?.();
      if (lost !== undefined) return { failedIndex: lost };
      const backoffMs = Math.random() * Math.min(MAX_TRANSACT_BACKOFF_MS, 10 * 2 ** attempt);
      if (clock.now() + backoffMs - startedMs > TRANSACT_RETRY_BUDGET_MS) throw error;
      // Full jitter keeps a burst of writers in one workspace from colliding again in lockstep.
      await clock.sleep(backoffMs);
    }
  }
}

/** Runs a query to the end, following LastEvaluatedKey. */
export async function* queryAll(db: Db, input: Omit<QueryCommandInput, 'TableName'>) {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(new QueryCommand({ ...input, TableName: db.table, ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) yield item;
    start = out.LastEvaluatedKey;
  } while (start);
}

export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

/**
 * One page of a key range, newest first. Pages after the first skip with keys-only reads, so page N costs
 * the keys before it plus one page of items, never a read of whole items it will not return.
 */
export async function queryPage(
  db: Db,
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>,
  { page, limit }: PageRequest,
  keyAttributes: readonly string[] = ['pk', 'sk'],
): Promise<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  let toSkip = (page - 1) * limit;
  while (toSkip > 0) {
    const names = Object.fromEntries(keyAttributes.map((a, i) => [`#k${i}`, a]));
    const out = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.table,
        ScanIndexForward: false,
        Limit: toSkip,
        ExclusiveStartKey: start,
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...names },
      }),
    );
    toSkip -= out.Items?.length ?? 0;
    start = out.LastEvaluatedKey;
    if (!start) return [];
  }
  const items: Record<string, unknown>[] = [];
  while (items.length < limit) {
    const out = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.table,
        ScanIndexForward: false,
        Limit: limit - items.length,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
    if (!start) break;
  }
  return items;
}

/** Every item of partition `pk` whose sort key starts with `prefix`, strongly consistent, in sort-key order (or reversed). */
export function queryPrefix(db: Db, pk: string, prefix: string, options: { reverse?: boolean } = {}) {
  return queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': pk, ':p': prefix },
    ConsistentRead: true,
    ...(options.reverse ? { ScanIndexForward: false } : {}),
  });
}

/**
 * Reads items by key, 100 per request (DynamoDB's BatchGetItem limit), strongly consistent, retrying the
 * keys DynamoDB left unprocessed with a growing pause. Missing items are simply absent from the result.
 */
export async function batchGetItems(db: Db, keys: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(i, i + 100);
    for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1_000, 20 * 2 ** attempt)));
      const out: BatchGetCommandOutput = await db.doc.send(new BatchGetCommand({ RequestItems: { [db.table]: { Keys: pending, ConsistentRead: true } } }));
      found.push(...(out.Responses?.[db.table] ?? []));
      pending = out.UnprocessedKeys?.[db.table]?.Keys;
    }
  }
  return found;
}
