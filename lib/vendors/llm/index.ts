import type { Config } from '../../config.js';
import { VendorError } from '../shared/errors.js';
import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicLlm } from './anthropic.js';
import type { LlmOptions } from './base.js';
import { CustomLlm, type CustomLlmEndpoint } from './custom.js';
import { GOOGLE_DEFAULT_BASE_URL, GoogleLlm } from './google.js';
import { OPENAI_DEFAULT_BASE_URL, OpenAiLlm } from './openai.js';
import type { LlmEvent, LlmProvider, LlmProviderId } from './port.js';

export type { LlmMetrics, LlmOptions } from './base.js';
export type { CustomLlmContext, CustomLlmEndpoint } from './custom.js';
export { DEFAULT_LLM_OPTIONS } from './base.js';
export type * from './port.js';

/**
 * The language-model provider an agent names (`llm_provider`), pointed at the vendor's real API or, when
 * the config carries a base URL, at that URL (a stand-in on loopback in `npm start` and the tests).
 * `options` tunes the shared base (retries, timeouts, metrics).
 *
 * A vendor without a key still gets a provider: its `stream` fails with a non-retryable `VendorError`, so
 * an agent naming an unconfigured vendor fails its own call, not the process (as the other ports do).
 * `custom` is the agent's own endpoint (`custom`, built from the agent by the caller), not the config's.
 */
export function createLlmProvider(id: LlmProviderId, config: Config, options: Partial<LlmOptions> = {}, custom?: CustomLlmEndpoint): LlmProvider {
  switch (id) {
    case 'custom':
      return custom ? new CustomLlm(custom, options) : unconfigured(id, 'the agent\'s llm_base_url');
    case 'openai':
      return config.OPENAI_API_KEY
        ? new OpenAiLlm({ apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL }, options)
        : unconfigured(id, 'OPENAI_API_KEY');
    case 'anthropic':
      return config.ANTHROPIC_API_KEY
        ? new AnthropicLlm({ apiKey: config.ANTHROPIC_API_KEY, baseUrl: config.ANTHROPIC_BASE_URL ?? ANTHROPIC_DEFAULT_BASE_URL }, options)
        : unconfigured(id, 'ANTHROPIC_API_KEY');
    case 'google':
      return config.GOOGLE_API_KEY
        ? new GoogleLlm({ apiKey: config.GOOGLE_API_KEY, baseUrl: config.GOOGLE_BASE_URL ?? GOOGLE_DEFAULT_BASE_URL }, options)
        : unconfigured(id, 'GOOGLE_API_KEY');
  }
}

function unconfigured(id: LlmProviderId, keyName: string): LlmProvider {
  return {
    id,
    async *stream(): AsyncIterable<LlmEvent> {
      throw new VendorError(id, `${keyName} is not set`, false);
    },
  };
}
