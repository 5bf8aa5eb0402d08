import type { Agent } from './agent.js';
import { ValidationError, type ErrorDetail } from './errors.js';
import { isAllowedHost, refuseToolUrl } from './ssrf.js';
import { MASK } from './tool.js';

/*
 * The rules of an agent's own model endpoint (`llm_provider: "custom"`, docs/vendors-llm.md), apart from the
 * agent schema so that only the handlers that save an agent carry the SSRF policy.
 */

/** What the check needs: TOOL_ALLOWED_HOSTS (local development and tests only), as for tools and webhooks. */
export interface LlmEndpointPolicy {
  readonly allowedHosts: readonly string[];
}

/**
 * Problems with a custom model's base URL, judged as a tool URL is at save time (lib/domain/ssrf.ts: no
 * literal private, loopback, link-local or metadata address, no internal host name; names are resolved and
 * checked again at every request). It must use https: plain http only reaches a host on TOOL_ALLOWED_HOSTS,
 * the same exemption that lets a webhook or tool reach a server on a developer's machine, because the
 * conversation and the key would otherwise cross the network in clear. No credentials, query or fragment:
 * the SDK appends `/chat/completions` to the base, and the key has its own field.
 */
export function llmBaseUrlProblems(text: string, policy: LlmEndpointPolicy): ErrorDetail[] {
  const field = 'llm_base_url';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [{ field, message: 'an absolute https URL of an OpenAI-compatible API, for example https://llm.example.com/v1' }];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [{ field, message: 'must use https' }];
  const refused = refuseToolUrl(url, policy.allowedHosts);
  if (refused) return [{ field, message: `is refused: ${refused}; a model endpoint must be a public host` }];
  if (url.protocol === 'http:' && !isAllowedHost(url, policy.allowedHosts)) {
    return [{ field, message: 'must use https (plain http would carry the conversation and the key in clear)' }];
  }
  if (url.username || url.password) return [{ field, message: 'credentials in the URL are not allowed; send the key as llm_api_key' }];
  if (url.search || url.hash) return [{ field, message: 'a base URL has no query or fragment (requests go to <base>/chat/completions)' }];
  return [];
}

/**
 * Cross-field rules of the model fields on the agent as it will be stored: a `custom` agent has a base URL
 * that passes {@link llmBaseUrlProblems}; another provider has neither URL nor key (they would do nothing).
 * Throws a ValidationError listing every problem; nothing is stored.
 */
export function assertAgentLlm(agent: Pick<Agent, 'llm_provider' | 'llm_base_url' | 'llm_api_key'>, policy: LlmEndpointPolicy): void {
  const problems: ErrorDetail[] = [];
  if (agent.llm_provider === 'custom') {
    if (!agent.llm_base_url) problems.push({ field: 'llm_base_url', message: 'llm_provider "custom" needs llm_base_url, the base URL of an OpenAI-compatible API' });
    else problems.push(...llmBaseUrlProblems(agent.llm_base_url, policy));
  } else {
    if (agent.llm_base_url) problems.push({ field: 'llm_base_url', message: 'llm_base_url belongs to llm_provider "custom"' });
    if (agent.llm_api_key) problems.push({ field: 'llm_api_key', message: 'llm_api_key belongs to llm_provider "custom"' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
}

/** The agent as every answer shows it: a set key is {@link MASK}, never the key nor its sealed form. */
export function maskAgent<A extends Pick<Agent, 'llm_api_key'>>(agent: A): A {
  return agent.llm_api_key ? { ...agent, llm_api_key: MASK } : agent;
}

export { MASK };
