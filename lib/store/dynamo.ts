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
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException, TransactionInProgressException } from '@aws-sdk/client-dynamodb';
import { StoreBusyError } from './transient.js';

export { StoreBusyError };

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
    // A stuck connection must not eat the Lambda's whole budget; DynamoDB answers in milliseconds. DynamoDB
    // Local, one JVM on a laptop shared with everything else, took over 5 s under a full test run beside
    // other work (3 December), and the API answered 503: it gets 30 s.
    requestHandler: { connectionTimeout: 2_000, requestTimeout: options.endpoint ? 30_000 : 5_000 },
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

/**
 * What a writer learns after its transaction met another on the same items: the index of an item whose
 * condition can no longer hold (`lostAt`: it would fail on it whoever wins the race), and what the contended
 * items hold now (`seen`, compared between tries: a change means another writer got through).
 */
export interface Standing {
  readonly lostAt?: number;
  readonly seen?: string | number;
}

export interface TransactOptions {
  /**
   * Asked after each conflict. A burst of writers that spent a balance between them gets its answer (out of
   * credits) instead of retries it cannot win, and a writer keeps trying while the others get through.
   */
  readonly standing?: () => Promise<Standing>;
}

/**
 * How long {@link transact} retries while no other writer gets through either (what it `seen` stays the
 * same): the items are held by something that does not finish, not by a crowd taking its turns.
 */
export const TRANSACT_STALL_MS = 6_000;
/** The longest {@link transact} retries outside a request (a queue consumer, a script). */
export const TRANSACT_MAX_MS = 20_000;
/** What a request keeps for itself after the store's retries: answering, and the writes after this one. */
const REQUEST_MARGIN_MS = 2_000;
/** The longest wait between two tries (full jitter below it). */
const MAX_TRANSACT_BACKOFF_MS = 1_000;

const requestDeadline = new AsyncLocalStorage<number>();

/**
 * Runs `work` with the store's retries bounded by `deadlineMs` (epoch ms): the Lambda's own deadline, so a
 * request retried by {@link transact} still answers before its function is cut off.
 */
export const withRequestDeadline = <T>(deadlineMs: number, work: () => Promise<T>): Promise<T> => requestDeadline.run(deadlineMs, work);

/**
 * Runs a transaction, retrying when another transaction touched the same items (counters are shared by
 * every write in a workspace). A failed condition comes back as the index of the first failed item.
 *
 * The retries are bounded by progress, not by a count or a stopwatch: 100 calls racing for a balance of 10
 * take turns, and how long the turns take depends on the store's speed (on a loaded machine a fixed 6 s
 * ran out with the balance still unspent, and those callers were told 429). A writer gives up (StoreBusyError)
 * only when its standing saw nobody get through for TRANSACT_STALL_MS, or at the request's deadline.
 *
 * Each try carries its own ClientRequestToken. When the SDK sends a try again (its answer was slow or lost)
 * DynamoDB answers the resend with the first one's outcome, or with TransactionInProgressException while
 * that first one still runs: then the same try is asked again after a pause (within the same budgets),
 * never a new one that would meet its own writes; a token is valid for 10 minutes, longer than any budget.
 */
export async function transact(db: Db, items: TransactItems, options: TransactOptions = {}): Promise<{ failedIndex?: number }> {
  const clock = db.retryClock ?? REAL_CLOCK;
  const startedMs = clock.now();
  const deadline = requestDeadline.getStore();
  const budgetMs = deadline === undefined ? TRANSACT_MAX_MS : Math.max(0, deadline - REQUEST_MARGIN_MS - Date.now());
  let movedAtMs = startedMs;
  let seen: Standing['seen'];
  let input: TransactWriteCommandInput = { TransactItems: items, ClientRequestToken: randomUUID() };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.doc.send(new TransactWriteCommand(input));
      return {};
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        const reasons = error.CancellationReasons ?? [];
        const failedIndex = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
        if (failedIndex >= 0) return { failedIndex };
        if (!reasons.some((r) => r.Code === 'TransactionConflict')) throw error;
        const standing = await options.standing?.();
        if (standing?.lostAt !== undefined) return { failedIndex: standing.lostAt };
        if (standing && standing.seen !== seen) {
          seen = standing.seen;
          movedAtMs = clock.now();
        }
        // A canceled try is over: the next one is a new request with a token of its own.
        input = { TransactItems: items, ClientRequestToken: randomUUID() };
      } else if (!(error instanceof TransactionInProgressException)) {
        // Throttling, timeouts and the table's own failures were retried by the SDK already (503 at the API).
        throw error;
      }
      // Otherwise the table still holds this try in progress: the same try is asked again, its token makes that safe.
      // Full jitter keeps a burst of writers in one workspace from colliding again in lockstep.
      const backoffMs = Math.random() * Math.min(MAX_TRANSACT_BACKOFF_MS, 10 * 2 ** attempt);
      const at = clock.now() + backoffMs;
      // Without a standing to read, a conflict itself says another writer is at work: only the budget ends it.
      const stalled = options.standing !== undefined && at - movedAtMs > TRANSACT_STALL_MS;
      if (stalled || at - startedMs > budgetMs) throw new StoreBusyError({ cause: error });
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
