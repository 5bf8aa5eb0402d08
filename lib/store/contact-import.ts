import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Contact } from '../domain/contact.js';
import { phoneGuard, toItem as contactItem } from './contacts.js';
import { transact, type Db } from './dynamo.js';
import { key } from './model.js';

type TransactItem = Parameters<typeof transact>[1][number];

/**
 * Contacts per transaction: each is two items (the contact and its phone guard) and the transaction adds
 * one counter update, so 49 is the most that fits DynamoDB's 100-item transaction limit.
 */
export const CONTACTS_PER_TRANSACTION = 49;
/**
 * Transactions in flight at once. Each one updates the workspace's contact counter, so on DynamoDB they
 * contend for that item and a loser is retried after a jittered pause; four keeps the table busy while
 * one transaction waits on the network, without turning most attempts into conflicts.
 */
export const IMPORT_CONCURRENCY = 4;
/** Whole-transaction retries after `transact` has spent its own conflict retries (busy counter). */
const CONFLICT_ROUNDS = 5;
/** Rounds of "drop the numbers that now exist and try again" before giving up on a chunk. */
const CONDITION_ROUNDS = 5;

export interface BulkInsertResult {
  /** Contacts written. */
  readonly created: number;
  /** Contacts not written because the workspace already had their number. */
  readonly existing: number;
  /** Contacts never attempted because the deadline passed first (in input order). */
  readonly unattempted: readonly Contact[];
}

const counterAdd = (db: Db, ws: string, n: number): TransactItem => ({
  Update: {
    TableName: db.table,
    Key: key.counter(ws, 'contact'),
    UpdateExpression: 'ADD #n :d SET entity = :e',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: { ':d': n, ':e': 'counter' },
  },
});

const isConflict = (error: unknown) =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');

/** `transact`, with further rounds when the counter stays busy beyond its own retries. */
async function transactPatiently(db: Db, items: TransactItem[]): Promise<{ failedIndex?: number }> {
  for (let round = 1; ; round += 1) {
    try {
      return await transact(db, items);
    } catch (error) {
      if (!isConflict(error) || round >= CONFLICT_ROUNDS) throw error;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100 * round));
    }
  }
}

/** Which of these E.164 numbers the workspace already has (strongly consistent; at most 100 per call). */
async function takenNumbers(db: Db, ws: string, numbers: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  let keys: Record<string, unknown>[] | undefined = numbers.map((n) => key.contactPhone(ws, n));
  for (let attempt = 0; keys && keys.length > 0; attempt += 1) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1_000, 20 * 2 ** attempt)));
    const out: BatchGetCommandOutput = await db.doc.send(
      new BatchGetCommand({
        RequestItems: { [db.table]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'sk' } },
      }),
    );
    for (const item of out.Responses?.[db.table] ?? []) taken.add(String(item.sk).slice('PHONE#'.length));
    keys = out.UnprocessedKeys?.[db.table]?.Keys;
  }
  return taken;
}

/**
 * Writes one chunk atomically: contacts, guards and the counter together. When a guard's condition fails
 * (the number exists, perhaps written a moment ago by someone else), the chunk's numbers are looked up,
 * the taken ones are counted as existing, and the rest is tried again.
 */
async function insertChunk(db: Db, ws: string, chunk: readonly Contact[]): Promise<BulkInsertResult> {
  let pending = chunk;
  let existing = 0;
  for (let round = 1; pending.length > 0; round += 1) {
    const items: TransactItem[] = pending.flatMap((c) => [
      { Put: { TableName: db.table, Item: contactItem(c), ConditionExpression: 'attribute_not_exists(pk)' } },
      phoneGuard(db, c),
    ]);
    items.push(counterAdd(db, ws, pending.length));
    const { failedIndex } = await transactPatiently(db, items);
    if (failedIndex === undefined) return { created: pending.length, existing, unattempted: [] };
    if (round >= CONDITION_ROUNDS) {
      throw new Error(`Contact import: a chunk kept failing its conditions after ${round} rounds (item ${failedIndex})`);
    }
    const taken = await takenNumbers(db, ws, pending.map((c) => c.phoneNumber));
    const before = pending.length;
    pending = pending.filter((c) => !taken.has(c.phoneNumber));
    existing += before - pending.length;
  }
  return { created: 0, existing, unattempted: [] };
}

/**
 * Bulk insert for imports: stores new contacts (numbers unique within `contacts`), each number claimed by
 * its guard in the same transaction as the contact and the counter, so a number the workspace already
 * has is counted as existing, never written twice, and the counter stays exact. `onProgress` gets the
 * number of contacts settled (written or found existing) after each transaction. No chunk is started
 * after `deadline` (epoch ms); the contacts of chunks never started come back as `unattempted`.
 */
export async function putNewContacts(
  db: Db,
  ws: string,
  contacts: readonly Contact[],
  options: { concurrency?: number; deadline?: number; onProgress?: (settled: number) => void } = {},
): Promise<BulkInsertResult> {
  const chunks: Contact[][] = [];
  for (let i = 0; i < contacts.length; i += CONTACTS_PER_TRANSACTION) {
    chunks.push(contacts.slice(i, i + CONTACTS_PER_TRANSACTION) as Contact[]);
  }
  let next = 0;
  let created = 0;
  let existing = 0;
  let failed = false;
  const started = new Set<number>();
  const worker = async () => {
    for (let i = next++; i < chunks.length && !failed; i = next++) {
      if (options.deadline !== undefined && Date.now() >= options.deadline) break;
      started.add(i);
      try {
        const result = await insertChunk(db, ws, chunks[i]!);
        created += result.created;
        existing += result.existing;
      } catch (error) {
        // The other workers finish their transaction in flight and stop, so nothing is written after the
        // caller has been told the import failed; what was written is whole chunks with the counter moved.
        failed = true;
        throw error;
      }
      options.onProgress?.(created + existing);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? IMPORT_CONCURRENCY, chunks.length));
  const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure) throw failure.reason;
  const unattempted = chunks.flatMap((chunk, i) => (started.has(i) ? [] : chunk));
  return { created, existing, unattempted };
}

/** Whether the workspace exists (the CLI names workspaces directly, without an API key to vouch for them). */
export async function workspaceExists(db: Db, ws: string): Promise<boolean> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.workspace(ws), ConsistentRead: true, ProjectionExpression: 'pk' }));
  return out.Item !== undefined;
}
