import type { Config } from '../config.js';
import type { ProviderKeyVendor, WorkspaceProviderKeys } from '../domain/provider-key.js';

/** The configuration variable holding the platform's key at each vendor. */
const KEY_VARIABLE = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_API_KEY',
  deepgram: 'DEEPGRAM_API_KEY',
  assemblyai: 'ASSEMBLYAI_API_KEY',
  speechmatics: 'SPEECHMATICS_API_KEY',
  elevenlabs: 'ELEVENLABS_API_KEY',
  cartesia: 'CARTESIA_API_KEY',
} as const satisfies Record<ProviderKeyVendor, keyof Config>;

/**
 * The vendor configuration of one call: the platform's, with each vendor the workspace brought a key for
 * switched to that key (docs/provider-keys.md). Base URLs stay: a workspace key goes where the platform's
 * would (the vendor, or a stand-in on loopback), so the adapters need no other change.
 */
export function configWithWorkspaceKeys(config: Config, keys: WorkspaceProviderKeys = {}): Config {
  const overrides = Object.fromEntries(Object.entries(keys).map(([vendor, key]) => [KEY_VARIABLE[vendor as ProviderKeyVendor], key]));
  return Object.keys(overrides).length === 0 ? config : Object.freeze({ ...config, ...overrides });
}

/** Every vendor key one call may use: the platform's and the workspace's own (to scrub from what the call keeps). */
export function vendorKeysOfCall(config: Config, keys: WorkspaceProviderKeys = {}): string[] {
  const platform = Object.values(KEY_VARIABLE).map((name) => config[name]);
  return [...platform, ...Object.values(keys)].filter((k): k is string => typeof k === 'string' && k.length > 0);
}
