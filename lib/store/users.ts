import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  INVITATION_TTL_MS,
  MAX_LIVE_SESSION_KEYS,
  PENDING_SIGN_UP_TTL_MS,
  SESSION_KEY_TTL_MS,
  alreadyMember,
  emailNotVerified,
  invitationExpired,
  invitationForAnother,
  invitationInvalid,
  type MemberView,
  type Role,
  type WorkspaceRef,
} from '../domain/dashboard.js';
import { newId } from '../domain/ids.js';
import { NotFoundError } from '../domain/errors.js';
import { queryPrefix, transact, type Db } from './dynamo.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from './model.js';
import { hashApiKey, workspaceItems } from './workspaces.js';

/**
 * Dashboard users (docs/dashboard.md): a profile per Cognito user (its id is the Cognito subject), a
 * membership item on each side (user and workspace) per workspace they belong to, their session keys, the
 * sign-ups waiting for a confirmation code and the invitations. Passwords live only in Cognito.
 */

type TransactItem = Parameters<typeof transact>[1][number];

const SESSION_KEY_PREFIX = 'vas_';
const ttlOf = (ms: number) => Math.floor(ms / 1000);

export interface UserProfile {
  readonly userId: string;
  readonly email: string;
  /** The workspace a plain refresh opens (the one last switched to). */
  readonly lastWorkspaceId?: string;
}

/** Keeps the workspace name of a sign-up until its email is confirmed (Cognito has no place for it). */
export async function savePendingSignUp(db: Db, input: { email: string; userId: string; workspaceName: string }): Promise<void> {
  const now = Date.now();
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...key.pendingSignUp(input.email),
        entity: ENTITY.pendingSignUp,
        v: TABLE_SCHEMA_VERSION,
        userId: input.userId,
        workspaceName: input.workspaceName,
        ttl: ttlOf(now + PENDING_SIGN_UP_TTL_MS),
      },
    }),
  );
}

/** The pending sign-up of an email, if it is still there (read, not removed: provisioning is idempotent). */
export async function findPendingSignUp(db: Db, email: string): Promise<{ userId: string; workspaceName: string } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.pendingSignUp(email), ConsistentRead: true }));
  if (!out.Item) return undefined;
  return { userId: String(out.Item.userId), workspaceName: String(out.Item.workspaceName) };
}

export async function findUser(db: Db, userId: string): Promise<UserProfile | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.user(userId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  return {
    userId,
    email: String(out.Item.email),
    ...(typeof out.Item.lastWorkspaceId === 'string' ? { lastWorkspaceId: out.Item.lastWorkspaceId } : {}),
  };
}

function membershipItems(db: Db, user: { userId: string; email: string }, ws: { id: string; name: string }, role: Role, now: string): TransactItem[] {
  return [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.membership(user.userId, ws.id), entity: ENTITY.membership, v: TABLE_SCHEMA_VERSION, workspaceId: ws.id, workspaceName: ws.name, role, joinedAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.member(ws.id, user.userId), entity: ENTITY.member, v: TABLE_SCHEMA_VERSION, userId: user.userId, email: user.email, role, joinedAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** A new workspace owned by the user, in one transaction with their membership. */
export async function createOwnedWorkspace(db: Db, user: { userId: string; email: string }, name: string, credits: number): Promise<WorkspaceRef> {
  const id = newId('workspace');
  const now = new Date().toISOString();
  await transact(db, [...workspaceItems(db, id, name, credits, now), ...membershipItems(db, user, { id, name }, 'owner', now)]);
  return { id, name, role: 'owner' };
}

/**
 * The user's profile with their first workspace, which they own: on confirming a sign-up, on a first
 * sign-in (a user made in the Cognito console) and from the CLI. A second call finds the profile and
 * changes nothing, so a retried confirmation cannot make two workspaces.
 */
export async function provisionUser(
  db: Db,
  input: { userId: string; email: string; workspaceName: string; credits: number },
): Promise<{ created: boolean }> {
  const now = new Date().toISOString();
  const id = newId('workspace');
  const profile: TransactItem = {
    Put: {
      TableName: db.table,
      Item: { ...key.user(input.userId), entity: ENTITY.user, v: TABLE_SCHEMA_VERSION, userId: input.userId, email: input.email, createdAt: now, lastWorkspaceId: id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  const { failedIndex } = await transact(db, [
    profile,
    ...workspaceItems(db, id, input.workspaceName, input.credits, now),
    ...membershipItems(db, input, { id, name: input.workspaceName }, 'owner', now),
  ]);
  // Only the profile's condition can fail (the workspace id is new): the user exists already.
  return { created: failedIndex === undefined };
}

/** Every workspace the user belongs to, oldest workspace first (ids are ULIDs). */
export async function listMemberships(db: Db, userId: string): Promise<WorkspaceRef[]> {
  const out: WorkspaceRef[] = [];
  for await (const item of queryPrefix(db, `USER#${userId}`, 'MEMBER#')) {
    out.push({ id: String(item.workspaceId), name: String(item.workspaceName), role: item.role as Role });
  }
  return out;
}

/** The members of a workspace (no user reads another's profile: the email is kept on the membership). */
export async function listMembers(db: Db, ws: string): Promise<MemberView[]> {
  const out: MemberView[] = [];
  for await (const item of queryPrefix(db, `WS#${ws}`, 'MEMBER#')) {
    out.push({ userId: String(item.userId), email: String(item.email), role: item.role as Role, joinedAt: String(item.joinedAt) });
  }
  return out;
}

/** Remembers the workspace a plain refresh should open next time. */
export async function setLastWorkspace(db: Db, userId: string, ws: string): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: key.user(userId),
      UpdateExpression: 'SET lastWorkspaceId = :ws',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':ws': ws },
    }),
  );
}

/**
 * A session key: `vas_` and 256 random bits, stored like an API key (by hash, so the API's one lookup
 * finds it) with the user, the role and an expiry; a reference under the user lets sign-out find it.
 */
export async function createSessionKey(db: Db, input: { userId: string; workspaceId: string; role: Role }): Promise<{ apiKey: string; expiresAt: string }> {
  const apiKey = `${SESSION_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const hash = hashApiKey(apiKey);
  const sessionId = newId('session');
  const expiresMs = Date.now() + SESSION_KEY_TTL_MS;
  const expiresAt = new Date(expiresMs).toISOString();
  const ttl = ttlOf(expiresMs);
  await transact(db, [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.apiKey(hash), entity: ENTITY.apiKey, v: TABLE_SCHEMA_VERSION, workspaceId: input.workspaceId, keyId: sessionId, session: true, userId: input.userId, role: input.role, expiresAt, ttl },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...key.sessionRef(input.userId, sessionId), entity: ENTITY.sessionRef, v: TABLE_SCHEMA_VERSION, keyHash: hash, ttl },
      },
    },
  ]);
  await trimSessionKeys(db, input.userId, sessionId);
  return { apiKey, expiresAt };
}

/**
 * Keeps the user's newest MAX_LIVE_SESSION_KEYS session keys, `kept` (the one just made) always among
 * them; older ones (and expired ones whose TTL deletion lags) are deleted, so they are refused from their
 * next request on. Session ids are ULIDs, so the query lists them oldest first. Concurrent sign-ins each
 * trim after writing their own key: the one whose query runs last sees every key, so at most the limit
 * stays live once they are done.
 */
async function trimSessionKeys(db: Db, userId: string, kept: string): Promise<void> {
  const nowS = Date.now() / 1000;
  const others: { pk: string; sk: string; keyHash: string; live: boolean }[] = [];
  for await (const item of queryPrefix(db, `USER#${userId}`, 'SESSION#')) {
    if (item.sk === key.sessionRef(userId, kept).sk) continue;
    others.push({ pk: String(item.pk), sk: String(item.sk), keyHash: String(item.keyHash), live: Number(item.ttl) > nowS });
  }
  const live = others.filter((o) => o.live);
  const keep = new Set(live.slice(Math.max(0, live.length - (MAX_LIVE_SESSION_KEYS - 1))).map((o) => o.sk));
  for (const old of others.filter((o) => !keep.has(o.sk))) await deleteSessionKey(db, old);
}

const deleteSessionKey = (db: Db, ref: { pk: string; sk: string; keyHash: string }) =>
  transact(db, [
    { Delete: { TableName: db.table, Key: key.apiKey(ref.keyHash) } },
    { Delete: { TableName: db.table, Key: { pk: ref.pk, sk: ref.sk } } },
  ]);

/** Deletes every session key of the user (sign-out): each is refused from its next request on. */
export async function revokeSessionKeys(db: Db, userId: string): Promise<number> {
  let count = 0;
  for await (const item of queryPrefix(db, `USER#${userId}`, 'SESSION#')) {
    await deleteSessionKey(db, { pk: String(item.pk), sk: String(item.sk), keyHash: String(item.keyHash) });
    count += 1;
  }
  return count;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** An invitation to a workspace for one email address; the token is returned only here (it is stored hashed). */
export async function createInvitation(
  db: Db,
  input: { workspaceId: string; workspaceName: string; email: string; role: Role; invitedBy: string },
): Promise<{ id: string; token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const id = newId('invitation');
  const expiresMs = Date.now() + INVITATION_TTL_MS;
  const expiresAt = new Date(expiresMs).toISOString();
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...key.invitation(hashToken(token)), entity: ENTITY.invitation, v: TABLE_SCHEMA_VERSION, invitationId: id, ...input, expiresAt, ttl: ttlOf(expiresMs) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { id, token, expiresAt };
}

/**
 * Accepts an invitation for the signed-in user: it must be theirs (same email, and that email verified:
 * anyone may set their own Cognito email to any address, unverified), current and unused; the membership
 * is written and the invitation deleted in one transaction, so a token works exactly once.
 */
export async function acceptInvitation(db: Db, token: string, user: { userId: string; email: string; emailVerified: boolean }): Promise<WorkspaceRef> {
  const tokenKey = key.invitation(hashToken(token));
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: tokenKey, ConsistentRead: true }));
  const item = out.Item;
  if (!item) throw invitationInvalid();
  if (Date.parse(String(item.expiresAt)) <= Date.now()) throw invitationExpired();
  if (String(item.email) !== user.email) throw invitationForAnother();
  if (!user.emailVerified) throw emailNotVerified();
  const ws = { id: String(item.workspaceId), name: String(item.workspaceName) };
  const role = item.role as Role;
  const { failedIndex } = await transact(db, [
    ...membershipItems(db, user, ws, role, new Date().toISOString()),
    { Delete: { TableName: db.table, Key: tokenKey, ConditionExpression: 'attribute_exists(pk)' } },
  ]);
  // Items 0-1 are the membership (the user is in already), 2 the token (used by a concurrent accept).
  if (failedIndex === 2) throw invitationInvalid();
  if (failedIndex !== undefined) throw alreadyMember();
  return { ...ws, role };
}

/** Removes a pending sign-up once its user exists. */
export async function deletePendingSignUp(db: Db, email: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: key.pendingSignUp(email) }));
}

/**
 * A user made by the admin CLI, put straight into an existing workspace with `role` (no workspace of their
 * own). The profile is new: Cognito refused the email already if the user existed.
 */
export async function addUserToWorkspace(db: Db, user: { userId: string; email: string }, workspaceId: string, role: Role): Promise<WorkspaceRef> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.workspace(workspaceId), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Workspace');
  const ws = { id: workspaceId, name: String(out.Item.name) };
  const now = new Date().toISOString();
  await transact(db, [
    {
      Put: {
        TableName: db.table,
        Item: { ...key.user(user.userId), entity: ENTITY.user, v: TABLE_SCHEMA_VERSION, userId: user.userId, email: user.email, createdAt: now, lastWorkspaceId: workspaceId },
      },
    },
    ...membershipItems(db, user, ws, role, now),
  ]);
  return { ...ws, role };
}

/**
 * An existing user (their profile is there) joins another workspace with `role` (the admin CLI's `user add`);
 * the workspace they open on a plain refresh stays theirs to switch. Refuses an unknown workspace, and a
 * membership that exists already with `already_member` (the transaction's condition, so a race cannot make two).
 */
export async function addMembership(db: Db, user: { userId: string; email: string }, workspaceId: string, role: Role): Promise<WorkspaceRef> {
  const out = await db.doc.send(new GetCommand({ TableName: db.table, Key: key.workspace(workspaceId), ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Workspace');
  const ws = { id: workspaceId, name: String(out.Item.name) };
  const { failedIndex } = await transact(db, membershipItems(db, user, ws, role, new Date().toISOString()));
  if (failedIndex !== undefined) throw alreadyMember();
  return { ...ws, role };
}
