import type { Config } from '../../lib/config.js';
import { createLlmProvider } from '../../lib/vendors/llm/index.js';
import { createSttProvider } from '../../lib/vendors/stt/index.js';
import { createTtsProvider } from '../../lib/vendors/tts/index.js';
import type { ProviderFactory } from './environment.js';

/**
 * The real vendor adapters, pointed where the configuration says: the vendor's service when its key is
 * real, a loopback stand-in when `npm start` or a test set the base URL. Providers are cheap objects, one
 * per call; the sockets they open are per call too.
 */
export function vendorProviders(config: Config): ProviderFactory {
  return {
    stt: (id) => createSttProvider(id, config),
    llm: (id) => createLlmProvider(id, config),
    tts: (id) => createTtsProvider(id, config),
  };
}
