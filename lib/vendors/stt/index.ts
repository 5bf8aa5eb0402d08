import type { Config } from '../../config.js';
import { VendorError } from '../shared/errors.js';
import { ASSEMBLYAI_DEFAULT_BASE_URL, assemblyAiSttConnector } from './assemblyai.js';
import { BaseSttProvider, type SttBaseOptions } from './base.js';
import { DEEPGRAM_DEFAULT_BASE_URL, deepgramSttConnector } from './deepgram.js';
import { OPENAI_DEFAULT_BASE_URL, openAiSttConnector } from './openai.js';
import type { SttProvider, SttProviderId, VendorEndpoint } from './port.js';
import { SPEECHMATICS_DEFAULT_AUTH_URL, SPEECHMATICS_DEFAULT_BASE_URL, speechmaticsSttConnector } from './speechmatics.js';

export type { SttEvent, SttOptions, SttProvider, SttProviderId, SttStream } from './port.js';
export type { SttBaseOptions, SttMetrics } from './base.js';

class MissingKey extends Error {
  constructor(readonly vendor: SttProviderId, readonly keyVar: string) {
    super(`${keyVar} is not set (npm start and the tests set it for the local stand-in)`);
  }
}

/**
 * Where a vendor is reached: a base-URL variable, when set, always wins (a stand-in on loopback, or a
 * proxy), with whatever key is configured; otherwise the vendor's real service. Either way a key is needed.
 */
function endpoint(vendor: SttProviderId, keyVar: string, apiKey: string | undefined, baseUrl: string | undefined, realBaseUrl: string): VendorEndpoint {
  if (!apiKey) throw new MissingKey(vendor, keyVar);
  return { apiKey, baseUrl: baseUrl ?? realBaseUrl };
}

/**
 * The speech-to-text provider an agent names. Endpoints come from the configuration: `X_BASE_URL` when set
 * (stand-ins, proxies), the vendor's production URL otherwise. A vendor without a key still builds; its
 * `connect` fails with a non-retryable VendorError, so an agent naming it fails its call, not the process.
 * `options` tunes the shared connect/retry/close policy and adds metrics hooks.
 */
export function createSttProvider(id: SttProviderId, config: Config, options: Partial<SttBaseOptions> = {}): SttProvider {
  try {
    return build(id, config, options);
  } catch (error) {
    if (!(error instanceof MissingKey)) throw error;
    const refusal = new VendorError(id, error.message, false);
    return { id, connect: () => Promise.reject(refusal) };
  }
}

function build(id: SttProviderId, config: Config, options: Partial<SttBaseOptions>): SttProvider {
  switch (id) {
    case 'deepgram':
      return new BaseSttProvider(
        deepgramSttConnector(endpoint(id, 'DEEPGRAM_API_KEY', config.DEEPGRAM_API_KEY, config.DEEPGRAM_BASE_URL, DEEPGRAM_DEFAULT_BASE_URL)),
        options,
      );
    case 'assemblyai':
      return new BaseSttProvider(
        assemblyAiSttConnector(endpoint(id, 'ASSEMBLYAI_API_KEY', config.ASSEMBLYAI_API_KEY, config.ASSEMBLYAI_BASE_URL, ASSEMBLYAI_DEFAULT_BASE_URL)),
        options,
      );
    case 'speechmatics': {
      const base = endpoint(id, 'SPEECHMATICS_API_KEY', config.SPEECHMATICS_API_KEY, config.SPEECHMATICS_BASE_URL, SPEECHMATICS_DEFAULT_BASE_URL);
      return new BaseSttProvider(speechmaticsSttConnector({ ...base, authUrl: config.SPEECHMATICS_AUTH_URL ?? SPEECHMATICS_DEFAULT_AUTH_URL }), options);
    }
    case 'openai':
      return new BaseSttProvider(
        openAiSttConnector(endpoint(id, 'OPENAI_API_KEY', config.OPENAI_API_KEY, config.OPENAI_STT_BASE_URL ?? config.OPENAI_BASE_URL, OPENAI_DEFAULT_BASE_URL)),
        options,
      );
  }
}
