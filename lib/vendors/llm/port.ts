import type { LLM_PROVIDERS, VENDOR_LLM_PROVIDERS } from '../../domain/providers.js';

export type LlmProviderId = (typeof LLM_PROVIDERS)[number];
/** The vendors the platform holds keys for and runs stand-ins of (not `custom`, the agent's own endpoint). */
export type VendorLlmProviderId = (typeof VENDOR_LLM_PROVIDERS)[number];

export interface LlmToolCall {
  /** The vendor's id for the call, echoed in the tool result. */
  readonly id: string;
  readonly name: string;
  /** JSON text of the arguments, as the model produced it. */
  readonly arguments: string;
  /**
   * Opaque vendor state that must travel back with this call in the next request (Gemini's
   * `thoughtSignature`; Gemini 3 rejects a follow-up without it). Keep the whole call object when building
   * the assistant message and the adapter does the rest. Optional: other vendors leave it unset.
   */
  readonly signature?: string;
}

/** Vendor-neutral conversation; each adapter maps it to its vendor's message format. */
export type LlmMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly LlmToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly name: string; readonly content: string };

export interface LlmToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of an object: the tool's parameters. */
  readonly parameters: Record<string, unknown>;
}

/**
 * Structured output: the reply's text is JSON matching `schema` (OpenAI `response_format` json_schema,
 * Anthropic `output_config.format`, Gemini `responseJsonSchema`). The caller still validates it: the schema
 * is sent non-strict, so vendors that support only part of JSON Schema do not refuse it.
 */
export interface LlmResponseFormat {
  /** A short identifier (OpenAI requires one): letters, digits, _ and -. */
  readonly name: string;
  readonly schema: Record<string, unknown>;
}

export interface LlmRequest {
  readonly model: string;
  readonly messages: readonly LlmMessage[];
  readonly tools?: readonly LlmToolSpec[];
  readonly responseFormat?: LlmResponseFormat;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export type LlmFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'other';

/**
 * What a streamed completion yields, in order: text deltas as they arrive, each tool call once complete
 * (arguments fully accumulated), then exactly one `done`. `atMs` is `performance.now()` at receipt.
 */
export type LlmEvent =
  | { readonly type: 'text'; readonly delta: string; readonly atMs: number }
  | { readonly type: 'tool_call'; readonly call: LlmToolCall; readonly atMs: number }
  | {
      readonly type: 'done';
      readonly finishReason: LlmFinishReason;
      readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
      readonly atMs: number;
    };

/** A language-model vendor. */
export interface LlmProvider {
  readonly id: LlmProviderId;
  /**
   * Streams one completion. Aborting `signal` stops the vendor request at once (barge-in): the iteration then
   * ends without a `done` event and without throwing, so a barge-in needs no error handling. A failure throws
   * a `VendorError` (lib/vendors/shared/errors.ts); it is retried only before the first event was yielded.
   */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent>;
}
