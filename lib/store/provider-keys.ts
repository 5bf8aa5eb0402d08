import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NotFoundError } from '../domain/errors.js';
import {
  PROVIDER_KEY_VENDORS,
  type KeyTestResult,
  type ProviderKeyVendor,
  type ProviderKeyView,
  type WorkspaceProviderKeys,
} from '../domain/provider-key.js';
import { queryAll, type Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';
import type { SecretBox } from './secret-box.js';

/**
 * A workspace's own vendor keys (docs/provider-keys.md): one item per vendor, `WS#<ws>/PROVIDERKEY#<vendor>`,
 * the key sealed with the data key and bound to the workspace. The listing fields (last four characters,
 * dates, last test) sit beside the sealed value, so a listing never opens a key.
 */

const PREFIX = 'PROVIDERKEY#';
const LABEL = 'Provider key';

interface StoredProviderKey extends ProviderKeyView {
  readonly keySealed: string;
}

const view = (item: Record<string, unknown>): ProviderKeyView => {
  const { provider, last4, createdAt, updatedAt, lastTestedAt, lastTestResult } = item as unknown as StoredProviderKey;
  return { provider, last4, createdAt, updatedAt, ...(lastTestedAt ? { lastTestedAt } : {}), ...(lastTestResult ? { lastTestResult } : {}) };
};

/** The workspace's key items: at most one per vendor, so one small query. */
const providerKeyItems = (db: Db, ws: string) =>
  queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `WS#${ws}`, ':prefix': PREFIX },
  });

/**
 * Stores (or replaces) a workspace's key at a vendor; a replaced key keeps its `createdAt` and loses its
 * last test (that was of the old key). Returns the listing entry and whether the vendor had none before.
 */
export async function putProviderKey(
  db: Db,
  box: SecretBox,
  ws: string,
  provider: ProviderKeyVendor,
  apiKey: string,
  last4: string,
  now: string,
): Promise<{ view: ProviderKeyView; created: boolean }> {
  const out = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: key.providerKey(ws, provider),
      UpdateExpression:
        'SET entity = :e, v = :v, provider = :p, keySealed = :k, last4 = :l, createdAt = if_not_exists(createdAt, :now), updatedAt = :now REMOVE lastTestedAt, lastTestResult',
      ExpressionAttributeValues: {
        ':e': ENTITY.providerKey,
        ':v': TABLE_SCHEMA_VERSION,
        ':p': provider,
        ':k': box.seal(apiKey, ws),
        ':l': last4,
        ':now': now,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const item = out.Attributes ?? {};
  return { view: view(item), created: item.createdAt === now };
}

/** The workspace's keys as listed: vendor, last four, dates; never a key. Vendors in a fixed order. */
export async function listProviderKeys(db: Db, ws: string): Promise<ProviderKeyView[]> {
  const found: ProviderKeyView[] = [];
  for await (const item of providerKeyItems(db, ws)) found.push(view(item));
  return found.sort((a, b) => PROVIDER_KEY_VENDORS.indexOf(a.provider) - PROVIDER_KEY_VENDORS.indexOf(b.provider));
}

/**
 * Every key the workspace registered, opened: what a call's setup reads once, at its start. One query of
 * at most eight small items.
 */
export async function workspaceProviderKeys(db: Db, box: SecretBox, ws: string): Promise<WorkspaceProviderKeys> {
  const keys: WorkspaceProviderKeys = {};
  for await (const item of providerKeyItems(db, ws)) {
    const stored = item as unknown as StoredProviderKey;
    keys[stored.provider] = box.open(stored.keySealed, ws);
  }
  return keys;
}

/** One registered key, opened, with the moment it was set (which names this very key), or 404. */
export async function getProviderKey(db: Db, box: SecretBox, ws: string, provider: ProviderKeyVendor): Promise<{ apiKey: string; updatedAt: string }> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.providerKey(ws, provider), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError(LABEL);
  const stored = out.Item as StoredProviderKey;
  return { apiKey: box.open(stored.keySealed, ws), updatedAt: stored.updatedAt };
}

/**
 * Records a test's outcome on the key it tested: only while the stored key is still that one (set at
 * `keyUpdatedAt`), so a key replaced or deleted during the test does not inherit the verdict. Undefined then.
 */
export async function recordProviderKeyTest(
  db: Db,
  ws: string,
  provider: ProviderKeyVendor,
  keyUpdatedAt: string,
  result: KeyTestResult,
  at: string,
): Promise<ProviderKeyView | undefined> {
  try {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.providerKey(ws, provider),
        UpdateExpression: 'SET lastTestedAt = :at, lastTestResult = :r',
        ConditionExpression: 'updatedAt = :u',
        ExpressionAttributeValues: { ':at': at, ':r': result, ':u': keyUpdatedAt },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return view(out.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Deletes a workspace's key at a vendor, or 404 (another workspace's key is just as unknown). */
export async function deleteProviderKey(db: Db, ws: string, provider: ProviderKeyVendor): Promise<void> {
  try {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.providerKey(ws, provider), ConditionExpression: 'attribute_exists(pk)' }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError(LABEL);
    throw error;
  }
}
