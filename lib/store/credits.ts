import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { queryAll, queryPrefix, type Db, type Standing, transact } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';
import { ID_PREFIX, ulidTimeBounds } from '../domain/ids.js';

/**
 * Credits: one balance item per workspace (`WS#<ws>/CREDITS`) and a ledger of every movement
 * (`WS#<ws>/LEDGER#<id>`). Every change to the balance is written in the same transaction as its ledger
 * entry, so the ledger always sums to the balance. A call's two entries have ids derived from the call id
 * (`<callId>#reserve`, `<callId>#settle`), which makes writing either twice impossible.
 */

export type TransactItem = Parameters<typeof transact>[1][number];

/** One ledger entry as stored. */
export interface LedgerEntry {
  readonly id: string;
  /** Positive adds credits, negative takes them. */
  readonly amount: number;
  readonly reason: string;
  readonly callId?: string;
  readonly createdAt: string;
}

/** The balance item's condition failed: the workspace holds less than `amount`. */
export const BALANCE_CONDITION = 'attribute_exists(pk) AND balance >= :amount';

/**
 * Takes `amount` from the balance only if at least that much is there. DynamoDB evaluates the condition
 * and the update atomically per item, so however many calls start at once the balance never goes below
 * zero: each transaction either sees enough and takes it, or fails its condition.
 */
export function debitItem(db: Db, ws: string, amount: number): TransactItem {
  return {
    Update: {
      TableName: db.table,
      Key: key.credits(ws),
      UpdateExpression: 'ADD balance :neg',
      ConditionExpression: BALANCE_CONDITION,
      ExpressionAttributeValues: { ':amount': amount, ':neg': -amount },
    },
  };
}

/**
 * For {@link transact}'s `standing`: lost at `index` (the debit's place in the transaction) once the balance
 * can no longer cover `amount`, read after a conflict; the balance itself shows whether others got through.
 */
export function balanceStanding(db: Db, ws: string, amount: number, index: number): () => Promise<Standing> {
  return async () => {
    const balance = await readBalance(db, ws);
    return { seen: balance, ...(balance < amount ? { lostAt: index } : {}) };
  };
}

/** Gives `amount` back to the balance (a release never needs a condition). */
export function creditItem(db: Db, ws: string, amount: number): TransactItem {
  return {
    Update: {
      TableName: db.table,
      Key: key.credits(ws),
      UpdateExpression: 'ADD balance :amount',
      ExpressionAttributeValues: { ':amount': amount },
    },
  };
}

/** A ledger entry that can be written only once (its id is the condition). */
export function ledgerItem(db: Db, ws: string, entry: LedgerEntry): TransactItem {
  return {
    Put: {
      TableName: db.table,
      Item: {
        ...key.ledger(ws, entry.id),
        entity: ENTITY.ledger,
        v: TABLE_SCHEMA_VERSION,
        amount: entry.amount,
        reason: entry.reason,
        ...(entry.callId ? { callId: entry.callId } : {}),
        createdAt: entry.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The ledger ids of a call's reservation and settlement. */
export const callLedgerId = (callId: string, step: 'reserve' | 'settle') => `${callId}#${step}`;

/** The current balance (strongly consistent); 0 for a workspace without a balance item. */
export async function readBalance(db: Db, ws: string): Promise<number> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.credits(ws), ConsistentRead: true }));
  return Number(out.Item?.balance ?? 0);
}

/**
 * The balance and the workspace's low-credits alert (`credits.low`, docs/webhooks.md): the threshold and,
 * while the balance stays under it, when the alert was sent. Kept on the balance item so one read has both.
 */
export interface CreditsState {
  readonly balance: number;
  readonly lowThreshold?: number;
  readonly lowNotifiedAt?: string;
}

export async function readCreditsState(db: Db, ws: string): Promise<CreditsState> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.credits(ws), ConsistentRead: true }));
  const item = out.Item ?? {};
  return {
    balance: Number(item.balance ?? 0),
    ...(typeof item.lowThreshold === 'number' ? { lowThreshold: item.lowThreshold } : {}),
    ...(typeof item.lowNotifiedAt === 'string' ? { lowNotifiedAt: item.lowNotifiedAt } : {}),
  };
}

/** Sets (or with null removes) the low-credits threshold; either way the alert is armed again. */
export async function setLowCreditsThreshold(db: Db, ws: string, threshold: number | null): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: key.credits(ws),
      UpdateExpression: threshold === null ? 'REMOVE lowThreshold, lowNotifiedAt' : 'SET lowThreshold = :t REMOVE lowNotifiedAt',
      ...(threshold === null ? {} : { ExpressionAttributeValues: { ':t': threshold } }),
    }),
  );
}

const conditional = async (send: () => Promise<unknown>): Promise<boolean> => {
  try {
    await send();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** Marks the alert sent, only if the balance is under the threshold and it was not sent yet; true when this call did. */
export const claimLowCreditsAlert = (db: Db, ws: string, at: string) =>
  conditional(() =>
    db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.credits(ws),
        UpdateExpression: 'SET lowNotifiedAt = :at',
        ConditionExpression: 'attribute_exists(lowThreshold) AND attribute_not_exists(lowNotifiedAt) AND balance < lowThreshold',
        ExpressionAttributeValues: { ':at': at },
      }),
    ),
  );

/** Arms the alert again once the balance is back at or over the threshold. */
export const rearmLowCreditsAlert = (db: Db, ws: string) =>
  conditional(() =>
    db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.credits(ws),
        UpdateExpression: 'REMOVE lowNotifiedAt',
        ConditionExpression: 'attribute_exists(lowNotifiedAt) AND balance >= lowThreshold',
      }),
    ),
  );

const ledgerEntryOf = (item: Record<string, unknown>): LedgerEntry => ({
  id: String(item.sk).slice('LEDGER#'.length),
  amount: Number(item.amount),
  reason: String(item.reason),
  ...(item.callId ? { callId: String(item.callId) } : {}),
  createdAt: String(item.createdAt),
});

/** Every ledger entry of a workspace, oldest first (admin and tests; a workspace's ledger is its own partition range). */
export async function listLedger(db: Db, ws: string): Promise<LedgerEntry[]> {
  const out: LedgerEntry[] = [];
  for await (const item of queryPrefix(db, `WS#${ws}`, 'LEDGER#')) {
    out.push(ledgerEntryOf(item));
  }
  return out;
}

/**
 * The call entries (reservations and settlements) of calls started since `sinceMs`: call ledger ids start
 * with the call id, a ULID, so this is one key range of the workspace's partition, not its whole ledger.
 */
export async function listCallLedgerSince(db: Db, ws: string, sinceMs: number): Promise<LedgerEntry[]> {
  const low = `LEDGER#${ID_PREFIX.call}_${ulidTimeBounds(sinceMs).low}`;
  const out: LedgerEntry[] = [];
  for await (const item of queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':low': low, ':high': `LEDGER#${ID_PREFIX.call}_~` },
    ConsistentRead: true,
  })) {
    out.push(ledgerEntryOf(item));
  }
  return out;
}

/**
 * Charges one chat message (docs/chat.md): the price taken from the balance with its ledger entry
 * `<chatId>#msg<n>`, in one transaction. `insufficient` when the balance cannot cover it; `already` when
 * message `n` of this chat was charged before (a retry charges nothing twice).
 */
export async function debitChatMessage(db: Db, ws: string, chatId: string, n: number, amount: number, now: string): Promise<'charged' | 'insufficient' | 'already'> {
  const { failedIndex } = await transact(
    db,
    [debitItem(db, ws, amount), ledgerItem(db, ws, { id: `${chatId}#msg${n}`, amount: -amount, reason: 'chat_message', callId: chatId, createdAt: now })],
    { standing: balanceStanding(db, ws, amount, 0) },
  );
  if (failedIndex === 0) return 'insufficient';
  return failedIndex === undefined ? 'charged' : 'already';
}

/**
 * Charges line `n` an agent test's model persona writes in a chat (docs/agent-tests.md, "Billing"): like a
 * chat message, in one transaction with its ledger entry `<chatId>#persona<n>` (reason `agent_test_persona`).
 */
export async function debitPersonaLine(db: Db, ws: string, chatId: string, n: number, amount: number, now: string): Promise<'charged' | 'insufficient' | 'already'> {
  const { failedIndex } = await transact(
    db,
    [debitItem(db, ws, amount), ledgerItem(db, ws, { id: `${chatId}#persona${n}`, amount: -amount, reason: 'agent_test_persona', callId: chatId, createdAt: now })],
    { standing: balanceStanding(db, ws, amount, 0) },
  );
  if (failedIndex === 0) return 'insufficient';
  return failedIndex === undefined ? 'charged' : 'already';
}
