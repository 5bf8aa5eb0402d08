import { createHash, randomBytes } from 'node:crypto';
import { BatchGetCommand, GetCommand, UpdateCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NotFoundError, BadRequestError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Db } from './dynamo.js';
import { queryPrefix, transact } from './dynamo.js';
import type { KeyView, Role } from '../domain/dashboard.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';

/**
 * What a widget key may do (docs/widget.md, "The key in the page"): start widget sessions for these agents,
 * from these page origins, and nothing else. A widget key sits in public page source, so it is refused by
 * every other endpoint (403) and a full key is refused by the widget.
 */
export interface WidgetKeyScope {
  readonly agentIds: readonly string[];
  /** Exact origins (`https://shop.example`), compared with the request's `Origin` header. */
  readonly origins: readonly string[];
}

/** The signed-in dashboard user a session key speaks for (docs/dashboard.md). */
export interface KeyUser {
  readonly userId: string;
  readonly role: Role;
}

/**
 * What an API key resolves to. `widget` is set for widget-scoped keys; a key without it has full scope.
 * `user` is set for session keys: they act for that user with that role, and expire (`revoked` once past).
 */
export interface ApiKeyRecord {
  readonly workspaceId: string;
  readonly keyId: string;
  readonly revoked: boolean;
  readonly widget?: WidgetKeyScope;
  readonly user?: KeyUser;
  /** When a use was last recorded (full and widget keys; see touchKeyLastUsed). */
  readonly lastUsedAt?: string;
}

/** Keys are stored as SHA-256 of the value: 256 random bits need no slow hash to resist guessing. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');

const API_KEY_PREFIX = 'vak_';
const newApiKeyValue = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
/** The start of a key kept for its listing: 6 random characters (36 of its 256 bits) tell keys apart, and guess nothing. */
const keyPrefix = (value: string) => value.slice(0, API_KEY_PREFIX.length + 6);

type TransactItem = Parameters<typeof transact>[1][number];

function apiKeyItems(db: Db, ws: string, keyId: string, name: string, value: string, now: string, widget?: WidgetKeyScope): TransactItem[] {
  const hash = hashApiKey(value);
  // The scope lives on both items: the hash item is what authentication reads, the ref what a listing shows.
  const scope = widget ? { scope: 'widget', agentIds: [...widget.agentIds], origins: [...widget.origins] } : {};
  return [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.apiKey(hash), entity: ENTITY.apiKey, v: TABLE_SCHEMA_VERSION, workspaceId: ws, keyId, createdAt: now, ...scope },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.apiKeyRef(ws, keyId), entity: ENTITY.apiKeyRef, v: TABLE_SCHEMA_VERSION, keyId, name, keyHash: hash, prefix: keyPrefix(value), createdAt: now, ...scope },
      },
    },
  ];
}

/** The items of a new workspace: its profile, its balance and the ledger entry of its initial credits. */
export function workspaceItems(db: Db, workspaceId: string, name: string, credits: number, now: string): TransactItem[] {
  return [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.workspace(workspaceId), entity: ENTITY.workspace, v: TABLE_SCHEMA_VERSION, workspaceId, name, createdAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.credits(workspaceId), entity: ENTITY.credits, v: TABLE_SCHEMA_VERSION, balance: credits },
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.ledger(workspaceId, newId('ledger')), entity: ENTITY.ledger, v: TABLE_SCHEMA_VERSION, amount: credits, reason: 'initial_grant', createdAt: now },
      },
    },
  ];
}

/** Creates a workspace with its credit balance and a first API key; the key value is returned only here. */
export async function createWorkspace(
  db: Db,
  input: { name: string; credits: number },
): Promise<{ workspaceId: string; apiKey: string; keyId: string }> {
  const workspaceId = newId('workspace');
  const keyId = newId('apiKey');
  const apiKey = newApiKeyValue();
  const now = new Date().toISOString();
  await transact(db, [...workspaceItems(db, workspaceId, input.name, input.credits, now), ...apiKeyItems(db, workspaceId, keyId, 'default', apiKey, now)]);
  return { workspaceId, apiKey, keyId };
}

async function requireWorkspace(db: Db, ws: string): Promise<void> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.workspace(ws), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Workspace');
}

/** Adds an API key to a workspace: full scope, or with `widget` a widget key limited to those agents and origins. */
export async function createApiKey(db: Db, ws: string, name: string, widget?: WidgetKeyScope): Promise<{ keyId: string; apiKey: string; key: KeyView }> {
  await requireWorkspace(db, ws);
  const keyId = newId('apiKey');
  const apiKey = newApiKeyValue();
  const createdAt = new Date().toISOString();
  await transact(db, apiKeyItems(db, ws, keyId, name, apiKey, createdAt, widget));
  const scope = widget ? { scope: 'widget' as const, agentIds: [...widget.agentIds], origins: [...widget.origins] } : { scope: 'full' as const };
  return { keyId, apiKey, key: { id: keyId, name, prefix: keyPrefix(apiKey), createdAt, lastUsedAt: null, ...scope } };
}

/** The workspace's keys that still work, newest first (session keys are not listed: they live under the user). */
export async function listApiKeys(db: Db, ws: string): Promise<KeyView[]> {
  const refs: Record<string, unknown>[] = [];
  for await (const item of queryPrefix(db, `WS#${ws}`, 'KEY#', { reverse: true })) {
    if (item.revokedAt === undefined) refs.push(item);
  }
  const lastUsed = await lastUsedOf(db, refs.map((r) => String(r.keyHash)));
  return refs.map((item) => {
    const widget = item.scope === 'widget';
    return {
      id: String(item.keyId),
      name: String(item.name),
      scope: widget ? 'widget' : 'full',
      // Keys made before prefixes were kept show the bare type prefix.
      prefix: typeof item.prefix === 'string' ? item.prefix : API_KEY_PREFIX,
      createdAt: String(item.createdAt),
      lastUsedAt: lastUsed.get(String(item.keyHash)) ?? null,
      ...(widget ? { agentIds: (item.agentIds as string[]) ?? [], origins: (item.origins as string[]) ?? [] } : {}),
    };
  });
}

/** `lastUsedAt` of each key hash, read from the items authentication reads (and writes it on). */
async function lastUsedOf(db: Db, hashes: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const BATCH = 100; // BatchGetItem's limit per call
  for (let i = 0; i < hashes.length; i += BATCH) {
    let keys: Record<string, unknown>[] | undefined = hashes.slice(i, i + BATCH).map((h) => key.apiKey(h));
    while (keys && keys.length > 0) {
      const res: BatchGetCommandOutput = await db.doc.send(
        new BatchGetCommand({ RequestItems: { [db.table]: { Keys: keys, ProjectionExpression: 'pk, lastUsedAt', ConsistentRead: true } } }),
      );
      for (const item of res.Responses?.[db.table] ?? []) {
        if (typeof item.lastUsedAt === 'string') out.set(String(item.pk).slice('APIKEY#'.length), item.lastUsedAt);
      }
      keys = res.UnprocessedKeys?.[db.table]?.Keys;
    }
  }
  return out;
}

/**
 * Records that a key was used, on the item authentication reads (so the next read tells whether another
 * write is due), unless a use in the last `resolutionMs` is recorded already: the condition makes
 * concurrent writers harmless, and a busy key costs one write a minute, not one per request.
 */
export async function touchKeyLastUsed(db: Db, hash: string, now: Date, resolutionMs: number): Promise<void> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key.apiKey(hash),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':cutoff': new Date(now.getTime() - resolutionMs).toISOString() },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Revokes a key by id; every later request with it gets 401. */
export async function revokeApiKey(db: Db, ws: string, keyId: string): Promise<void> {
  const ref = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.apiKeyRef(ws, keyId), ConsistentRead: true }));
  const hash = ref.Item?.keyHash as string | undefined;
  if (!hash) throw new NotFoundError('API key');
  const now = new Date().toISOString();
  const revoke = (k: { pk: string; sk: string }): TransactItem => ({
    Update: {
      TableName: db.table,
      Key: k,
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now },
    },
  });
  await transact(db, [revoke(key.apiKey(hash)), revoke(key.apiKeyRef(ws, keyId))]);
}

/** Looks a presented key up by its hash (see hashApiKey); undefined when unknown. */
export async function findApiKeyByHash(db: Db, hash: string): Promise<ApiKeyRecord | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.apiKey(hash), ConsistentRead: true }));
  if (!out.Item) return undefined;
  // A session key past its time is refused at once: DynamoDB deletes expired items only eventually.
  const expired = typeof out.Item.expiresAt === 'string' && Date.parse(out.Item.expiresAt) <= Date.now();
  return {
    workspaceId: out.Item.workspaceId as string,
    keyId: out.Item.keyId as string,
    revoked: out.Item.revokedAt !== undefined || expired,
    ...(out.Item.session === true ? { user: { userId: out.Item.userId as string, role: out.Item.role as Role } } : {}),
    ...(typeof out.Item.lastUsedAt === 'string' ? { lastUsedAt: out.Item.lastUsedAt } : {}),
    ...(out.Item.scope === 'widget'
      ? { widget: { agentIds: (out.Item.agentIds as string[] | undefined) ?? [], origins: (out.Item.origins as string[] | undefined) ?? [] } }
      : {}),
  };
}

/** Adds credits with a ledger entry in the same transaction; returns the new balance. */
export async function addCredits(db: Db, ws: string, amount: number, reason = 'top_up'): Promise<number> {
  if (!Number.isFinite(amount) || amount <= 0) throw new BadRequestError('The amount must be a positive number.');
  await requireWorkspace(db, ws);
  const now = new Date().toISOString();
  await transact(db, [
    {
      Update: {
        TableName: db.table,
        Key: key.credits(ws),
        UpdateExpression: 'ADD balance :a SET entity = :e',
        ExpressionAttributeValues: { ':a': amount, ':e': ENTITY.credits },
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.ledger(ws, newId('ledger')), entity: ENTITY.ledger, v: TABLE_SCHEMA_VERSION, amount, reason, createdAt: now },
      },
    },
  ]);
  return creditBalance(db, ws);
}

export async function creditBalance(db: Db, ws: string): Promise<number> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.credits(ws), ConsistentRead: true }));
  return Number(out.Item?.balance ?? 0);
}
