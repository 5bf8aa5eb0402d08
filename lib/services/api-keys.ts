import { LAST_USED_RESOLUTION_MS } from '../domain/access.js';
import type { Db } from '../store/dynamo.js';
import { createApiKey, findApiKeyByHash, hashApiKey, revokeApiKey, touchKeyLastUsed, type ApiKeyRecord, type WidgetKeyScope } from '../store/workspaces.js';
import type { KeyView } from '../domain/dashboard.js';

/**
 * What an `x-api-key` is worth, decided the same way by the route middleware (lib/http/middleware/authenticate.ts) and by
 * the API's Lambda authorizer (functions/auth/authorizer.ts), so API Gateway refuses exactly the keys the
 * handlers would. `widget` keys sit in public page source and open widget sessions only.
 */
export type KeyVerdict =
  | { readonly kind: 'ok'; readonly workspaceId: string; readonly keyHash: string; readonly context: ApiKeyContext; readonly record: ApiKeyRecord }
  | { readonly kind: 'missing' | 'unknown' | 'revoked' | 'widget'; readonly keyHash?: string };

/** What the authorizer hands the route middleware in `requestContext.authorizer.lambda`. */
export interface ApiKeyContext {
  readonly workspaceId: string;
  readonly keyHash: string;
  readonly keyId: string;
  /** Set for a dashboard session key (docs/dashboard.md): the signed-in user and their role in the workspace. */
  readonly userId?: string;
  readonly role?: string;
}

/** Longer than any key the platform issues; refused before hashing so a huge header costs nothing. */
export const MAX_API_KEY_LENGTH = 200;

/** The presented key's hash, or undefined when there is nothing worth looking up. */
export function presentedKeyHash(presented: string | undefined): string | undefined {
  if (!presented || presented.length > MAX_API_KEY_LENGTH) return undefined;
  return hashApiKey(presented);
}

/** One consistent read of the key's item. */
export async function keyVerdict(db: Db, presented: string | undefined): Promise<KeyVerdict> {
  const keyHash = presentedKeyHash(presented);
  if (!keyHash) return { kind: 'missing' };
  const found = await findApiKeyByHash(db, keyHash);
  if (!found) return { kind: 'unknown', keyHash };
  if (found.revoked) return { kind: 'revoked', keyHash };
  if (found.widget) return { kind: 'widget', keyHash };
  const context: ApiKeyContext = {
    workspaceId: found.workspaceId,
    keyHash,
    keyId: found.keyId,
    ...(found.user ? { userId: found.user.userId, role: found.user.role } : {}),
  };
  return { kind: 'ok', workspaceId: found.workspaceId, keyHash, context, record: found };
}

/**
 * Records a full or widget key's use for its listing's "last used" when the stored one is older than
 * LAST_USED_RESOLUTION_MS: the key item was just read, so a busy key costs one write a minute (session keys
 * are not listed, and write nothing). Whoever reads the key calls it: the route middleware locally, the
 * authorizer behind API Gateway.
 */
export async function noteKeyUse(db: Db, hash: string, found: ApiKeyRecord): Promise<void> {
  if (found.user) return;
  const now = Date.now();
  if (found.lastUsedAt && now - Date.parse(found.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  await touchKeyLastUsed(db, hash, new Date(now), LAST_USED_RESOLUTION_MS);
}

/** Issues a key for the workspace (a widget key when `widget` scopes it); the value is shown this once. */
export const issueApiKey = (db: Db, ws: string, name: string, widget?: WidgetKeyScope): Promise<{ keyId: string; apiKey: string; key: KeyView }> =>
  createApiKey(db, ws, name, widget);

/** Revokes the workspace's key (404 if it has none by that id). */
export const revokeWorkspaceKey = (db: Db, ws: string, keyId: string): Promise<void> => revokeApiKey(db, ws, keyId);
