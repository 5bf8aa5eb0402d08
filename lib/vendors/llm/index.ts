import type { Config } from '../../config.js';
import { VendorError } from '../shared/errors.js';
import { ANTHROPIC_DEFAULT_BASE_URL, AnthropicLlm } from './anthropic.js';
import type { LlmOptions } from './base.js';
import { GOOGLE_DEFAULT_BASE_URL, GoogleLlm } from './google.js';
import { OPENAI_DEFAULT_BASE_URL, OpenAiLlm } from './openai.js';
import type { LlmProvider, LlmProviderId } from './port.js';

export type { LlmMetrics, LlmOptions } from './base.js';
export { DEFAULT_LLM_OPTIONS } from './base.js';
export type * from './port.js';

/**
 * The language-model provider an agent names (`llm_provider`), pointed at the vendor's real API or, when
 * the config carries a base URL, at that URL (a stand-in on loopback in `npm start` and the tests).
 * `options` tunes the shared base (retries, timeouts, metrics).
 *
 * @throws VendorError (not retryable) when the vendor's API key is not configured.
 */
export function createLlmProvider(id: LlmProviderId, config: Config, options: Partial<LlmOptions> = {}): LlmProvider {
  switch (id) {
    case 'openai':
      return new OpenAiLlm({ apiKey: requireKey(id, 'OPENAI_API_KEY', config.OPENAI_API_KEY), baseUrl: config.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL }, options);
    case 'anthropic':
      return new AnthropicLlm(
        { apiKey: requireKey(id, 'ANTHROPIC_API_KEY', config.ANTHROPIC_API_KEY), baseUrl: config.ANTHROPIC_BASE_URL ?? ANTHROPIC_DEFAULT_BASE_URL },
        options,
      );
    case 'google':
      return new GoogleLlm({ apiKey: requireKey(id, 'GOOGLE_API_KEY', config.GOOGLE_API_KEY), baseUrl: config.GOOGLE_BASE_URL ?? GOOGLE_DEFAULT_BASE_URL }, options);
  }
}

function requireKey(vendor: LlmProviderId, name: string, value: string | undefined): string {
  if (!value) throw new VendorError(vendor, `${name} is not set`, false);
  return value;
}
