import type { Deps } from '../deps.js';
import { last4, type ProviderKeySet, type ProviderKeyTested, type ProviderKeyVendor, type ProviderKeyView } from '../domain/provider-key.js';
import { log } from '../observability/log.js';
import { getProviderKey, putProviderKey, recordProviderKeyTest, deleteProviderKey } from '../store/provider-keys.js';
import { checkVendorKey } from '../vendors/key-check.js';

/**
 * A workspace's own vendor keys as use cases (docs/provider-keys.md). The key goes in once, sealed, and never
 * comes back out through the API; logs name the vendor and the workspace, never the key or its last four.
 */

/** Sets (or replaces) the workspace's key at `provider`; `created` tells a first key (201) from a replacement (200). */
export async function setProviderKey(
  deps: Pick<Deps, 'db' | 'secrets'>,
  ws: string,
  provider: ProviderKeyVendor,
  input: ProviderKeySet,
): Promise<{ view: ProviderKeyView; created: boolean }> {
  const out = await putProviderKey(deps.db, deps.secrets, ws, provider, input.apiKey, last4(input.apiKey), new Date().toISOString());
  log('info', out.created ? 'provider key set' : 'provider key replaced', { workspaceId: ws, provider });
  return out;
}

/** Sends the vendor's cheapest authenticated request with the stored key and records the verdict on it. */
export async function testProviderKey(deps: Pick<Deps, 'db' | 'secrets' | 'config'>, ws: string, provider: ProviderKeyVendor): Promise<ProviderKeyTested> {
  const stored = await getProviderKey(deps.db, deps.secrets, ws, provider);
  const outcome = await checkVendorKey(deps.config, provider, stored.apiKey);
  const testedAt = new Date().toISOString();
  await recordProviderKeyTest(deps.db, ws, provider, stored.updatedAt, outcome.result, testedAt);
  log('info', 'provider key tested', { workspaceId: ws, provider, result: outcome.result, vendorStatus: outcome.vendorStatus });
  return { provider, ...outcome, testedAt };
}

/** Deletes the workspace's key for a vendor (404 if it has none). */
export const removeProviderKey = (db: Deps['db'], ws: string, provider: ProviderKeyVendor): Promise<void> => deleteProviderKey(db, ws, provider);
