import { pinnedFetch } from '../../outbound/pinned-fetch.js';
import { ToolTargetRefusedError, type Resolver } from '../../outbound/target-guard.js';
import { redactValue, VendorError } from '../shared/errors.js';
import type { LlmOptions } from './base.js';
import { OpenAiLlm } from './openai.js';

/** Who a custom model's requests are for: sent with each one as headers (docs/vendors-llm.md). */
export interface CustomLlmContext {
  /** The call's id, or the chat's. */
  readonly callId: string;
  readonly agentId: string;
  /** The call's `{{variables}}`, every layer merged. */
  readonly variables?: Readonly<Record<string, string>>;
  /** The call's own `metadata`. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** An agent's own OpenAI-compatible endpoint (`llm_provider: "custom"`). */
export interface CustomLlmEndpoint {
  /** `llm_base_url`, checked when the agent was saved and again at every request. */
  readonly baseUrl: string;
  /** `llm_api_key`, opened: sent as `Authorization: Bearer <key>`; without one no Authorization is sent. */
  readonly apiKey?: string;
  readonly context: CustomLlmContext;
  /** TOOL_ALLOWED_HOSTS: the hosts that may be private (local development and tests; empty in production). */
  readonly allowedHosts: readonly string[];
  readonly resolver?: Resolver;
}

/**
 * The largest JSON header we send. Servers cap a request's headers at 8-16 KB in total (Node's default is
 * 16 KB, nginx's 8 KB per line): past this a header would get the whole request refused (431), so a larger
 * object is left out and the server reads it elsewhere (docs/vendors-llm.md).
 */
export const MAX_CONTEXT_HEADER_BYTES = 4 * 1024;

/** JSON as a header value: non-ASCII written as `\u` escapes (still the same JSON), undefined when too large. */
export function jsonHeader(value: unknown): string | undefined {
  const text = JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length <= MAX_CONTEXT_HEADER_BYTES ? text : undefined;
}

/** The headers that carry the turn's context, exported for tests and the docs. */
export function contextHeaders(context: CustomLlmContext): Record<string, string> {
  const variables = context.variables && Object.keys(context.variables).length > 0 ? jsonHeader(context.variables) : undefined;
  const metadata = context.metadata && Object.keys(context.metadata).length > 0 ? jsonHeader(context.metadata) : undefined;
  return {
    'x-call-id': context.callId,
    'x-agent-id': context.agentId,
    ...(variables !== undefined && { 'x-call-variables': variables }),
    ...(metadata !== undefined && { 'x-call-metadata': metadata }),
  };
}

/**
 * A model behind the agent's own OpenAI-compatible Chat Completions endpoint (vLLM, Ollama, LiteLLM, Groq,
 * OpenRouter, a LangGraph server): the OpenAI adapter, the same streaming, tool-call deltas and usage, with
 * the SDK's `fetch` replaced by one that SSRF-checks every request and connects to the checked address
 * (lib/outbound/pinned-fetch.ts). Its failures are vendor failures: the shared base retries them, the call's
 * chain moves to the agent's fallback models, and the last one's failure is the turn's apology.
 */
export class CustomLlm extends OpenAiLlm {
  override readonly id = 'custom' as const;

  private readonly apiKey: string | undefined;

  constructor(endpoint: CustomLlmEndpoint, options: Partial<LlmOptions> = {}) {
    super({ apiKey: endpoint.apiKey ?? 'unused', baseUrl: endpoint.baseUrl }, options, {
      fetch: pinnedFetch({ allowedHosts: endpoint.allowedHosts, ...(endpoint.resolver && { resolver: endpoint.resolver }) }) as typeof fetch,
      // Without a key the SDK would still send "Bearer unused"; null leaves the header out.
      defaultHeaders: { ...contextHeaders(endpoint.context), ...(endpoint.apiKey === undefined && { authorization: null }) },
    });
    this.apiKey = endpoint.apiKey;
  }

  protected override mapError(error: unknown): VendorError {
    // The customer's key is theirs, of any shape: a server that echoes it back must not put it in a log.
    return redactValue(this.mapped(error), this.apiKey);
  }

  private mapped(error: unknown): VendorError {
    // A refused address stays refused: no retry, straight to the fallback models.
    for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth += 1) {
      if (e instanceof ToolTargetRefusedError) return new VendorError('custom', e.message, false, undefined, { cause: e });
    }
    return super.mapError(error);
  }
}
