import { createHash, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError, BadRequestError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Db } from './dynamo.js';
import { transact } from './dynamo.js';
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

/** What an API key resolves to. `widget` is set for widget-scoped keys; a key without it has full scope. */
export interface ApiKeyRecord {
  readonly workspaceId: string;
  readonly keyId: string;
  readonly revoked: boolean;
  readonly widget?: WidgetKeyScope;
}

/** Keys are stored as SHA-256 of the value: 256 random bits need no slow hash to resist guessing. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');

const API_KEY_PREFIX = 'vak_';
const newApiKeyValue = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

type TransactItem = Parameters<typeof transact>[1][number];

function apiKeyItems(db: Db, ws: string, keyId: string, name: string, hash: string, now: string, widget?: WidgetKeyScope): TransactItem[] {
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
        Item: { ...key.apiKeyRef(ws, keyId), entity: ENTITY.apiKeyRef, v: TABLE_SCHEMA_VERSION, keyId, name, keyHash: hash, createdAt: now, ...scope },
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
  const ledgerId = newId('ledger');
  await transact(db, [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.workspace(workspaceId), entity: ENTITY.workspace, v: TABLE_SCHEMA_VERSION, workspaceId, name: input.name, createdAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.credits(workspaceId), entity: ENTITY.credits, v: TABLE_SCHEMA_VERSION, balance: input.credits },
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.ledger(workspaceId, ledgerId), entity: ENTITY.ledger, v: TABLE_SCHEMA_VERSION, amount: input.credits, reason: 'initial_grant', createdAt: now },
      },
    },
    ...apiKeyItems(db, workspaceId, keyId, 'default', hashApiKey(apiKey), now),
  ]);
  return { workspaceId, apiKey, keyId };
}

async function requireWorkspace(db: Db, ws: string): Promise<void> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.workspace(ws), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Workspace');
}

/** Adds an API key to a workspace: full scope, or with `widget` a widget key limited to those agents and origins. */
export async function createApiKey(db: Db, ws: string, name: string, widget?: WidgetKeyScope): Promise<{ keyId: string; apiKey: string }> {
  await requireWorkspace(db, ws);
  const keyId = newId('apiKey');
  const apiKey = newApiKeyValue();
  await transact(db, apiKeyItems(db, ws, keyId, name, hashApiKey(apiKey), new Date().toISOString(), widget));
  return { keyId, apiKey };
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
  return {
    workspaceId: out.Item.workspaceId as string,
    keyId: out.Item.keyId as string,
    revoked: out.Item.revokedAt !== undefined,
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
