import type { Config } from '../../lib/config.js';
import { createLlmProvider } from '../../lib/vendors/llm/index.js';
import { createSttProvider } from '../../lib/vendors/stt/index.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import { configWithWorkspaceKeys } from '../../lib/vendors/workspace-keys.js';
import type { ProviderFactory } from './environment.js';

/**
 * The real vendor adapters, pointed where the configuration says: the vendor's service when its key is
 * real, a loopback stand-in when `npm start` or a test set the base URL. Providers are cheap objects, one
 * per call; the sockets they open are per call too. A vendor the call's workspace brought its own key for
 * is reached with that key (docs/provider-keys.md).
 */
export function vendorProviders(config: Config): ProviderFactory {
  return {
    stt: (id, keys) => createSttProvider(id, configWithWorkspaceKeys(config, keys)),
    llm: (id, keys, custom) => createLlmProvider(id, configWithWorkspaceKeys(config, keys), {}, custom),
    tts: (id, keys) => createTtsProvider(id, configWithWorkspaceKeys(config, keys)),
  };
}
