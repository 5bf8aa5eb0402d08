import type { Db } from '../store/dynamo.js';
import { findApiKeyByHash, hashApiKey } from '../store/workspaces.js';

/**
 * What an `x-api-key` is worth, decided the same way by the route middleware (lib/http/handler.ts) and by
 * the API's Lambda authorizer (functions/auth/authorizer.ts), so API Gateway refuses exactly the keys the
 * handlers would. `widget` keys sit in public page source and open widget sessions only.
 */
export type KeyVerdict =
  | { readonly kind: 'ok'; readonly workspaceId: string; readonly keyHash: string }
  | { readonly kind: 'missing' | 'unknown' | 'revoked' | 'widget'; readonly keyHash?: string };

/** What the authorizer hands the route middleware in `requestContext.authorizer.lambda`. */
export interface ApiKeyContext {
  readonly workspaceId: string;
  readonly keyHash: string;
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
  return { kind: 'ok', workspaceId: found.workspaceId, keyHash };
}
