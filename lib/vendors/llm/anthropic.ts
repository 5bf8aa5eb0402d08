import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  StopReason,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import { retryAfterMs, type VendorError } from '../shared/errors.js';
import type { VendorEndpoint } from '../stt/port.js';
import { BaseLlm, alternatingTurns, parseArguments, systemPrompt, unexpectedError, vendorErrorFromStatus, type LlmOptions } from './base.js';
import type { LlmEvent, LlmFinishReason, LlmMessage, LlmRequest, LlmToolSpec } from './port.js';

/** The public API; `ANTHROPIC_BASE_URL` replaces it (the SDK appends `/v1/messages`). */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/**
 * `max_tokens` is required by the Messages API. A spoken reply is a few sentences; 1024 leaves room for tool
 * call arguments without letting a runaway answer talk for minutes.
 */
const DEFAULT_MAX_TOKENS = 1024;

/**
 * Anthropic Messages, streamed (`messages.create({stream: true})`), through `@anthropic-ai/sdk`. The system
 * prompt goes top-level; tool calls are `tool_use` blocks whose `input_json_delta` fragments are joined and
 * yielded at `content_block_stop`; tool results go back as `tool_result` blocks in a user message.
 */
export class AnthropicLlm extends BaseLlm {
  readonly id = 'anthropic' as const;
  private readonly client: Anthropic;

  constructor(endpoint: VendorEndpoint, options: Partial<LlmOptions> = {}) {
    super(options);
    this.client = new Anthropic({
      // A key passed in code is the client's only credential: the SDK then reads none from the environment.
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseUrl,
      // The base retries, and only before output.
      maxRetries: 0,
    });
  }

  protected async *run(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    const stream = await this.client.messages.create(toAnthropicBody(request), { signal });
    const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
    let inputTokens = 0;
    let outputTokens = 0;
    let stopReason: StopReason | null = null;
    let stopped = false;
    for await (const event of stream) {
      const atMs = performance.now();
      switch (event.type) {
        case 'message_start': {
          const usage = event.message.usage;
          // Cached prompt tokens are input too; they are billed at other rates but still read.
          inputTokens = usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
          outputTokens = usage.output_tokens;
          break;
        }
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            toolBlocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
          }
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta') {
            if (event.delta.text) yield { type: 'text', delta: event.delta.text, atMs };
          } else if (event.delta.type === 'input_json_delta') {
            const block = toolBlocks.get(event.index);
            if (block) block.json += event.delta.partial_json;
          }
          break;
        case 'content_block_stop': {
          const block = toolBlocks.get(event.index);
          if (block) {
            toolBlocks.delete(event.index);
            yield { type: 'tool_call', call: { id: block.id, name: block.name, arguments: block.json === '' ? '{}' : block.json }, atMs };
          }
          break;
        }
        case 'message_delta':
          stopReason = event.delta.stop_reason ?? stopReason;
          // Cumulative, per the API reference.
          outputTokens = event.usage.output_tokens;
          break;
        case 'message_stop':
          stopped = true;
          break;
      }
    }
    if (signal.aborted || !stopped) return;
    yield { type: 'done', finishReason: mapStopReason(stopReason), usage: { inputTokens, outputTokens }, atMs: performance.now() };
  }

  protected mapError(error: unknown): VendorError {
    return mapAnthropicError(error);
  }
}

/** The request body, exported for unit tests. */
export function toAnthropicBody(request: LlmRequest): MessageCreateParamsStreaming {
  const system = systemPrompt(request.messages);
  return {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    ...(system && { system }),
    messages: toAnthropicMessages(request.messages),
    ...(request.tools?.length && { tools: request.tools.map(toAnthropicTool) }),
    ...(request.responseFormat && { output_config: { format: { type: 'json_schema' as const, schema: request.responseFormat.schema } } }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    stream: true,
  };
}

/**
 * Neutral messages to Anthropic messages. System messages are left out (they go top-level). Tool results
 * become `tool_result` blocks in a user message, ahead of any user text (the API wants them first).
 * Consecutive messages of one role are merged into one, and empty text is dropped (the API refuses empty
 * text blocks; an agent reply cut off before its first word leaves one).
 */
export function toAnthropicMessages(messages: readonly LlmMessage[]): MessageParam[] {
  const turns = alternatingTurns<ContentBlockParam>(messages, {
    text: (text) => ({ type: 'text', text }),
    toolCall: (call) => ({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) }),
    toolResult: (message) => ({ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }),
    merge: (earlier, later) => {
      // tool_result blocks lead a user message; text that came earlier moves behind them.
      const results = [...earlier, ...later].filter((b) => b.type === 'tool_result');
      const rest = [...earlier, ...later].filter((b) => b.type !== 'tool_result');
      return [...results, ...rest];
    },
  });
  // A single text block is sent as a plain string, the form the API documents first and the smallest.
  return turns.map(({ fromUser, parts: content }) => {
    const role = fromUser ? 'user' : 'assistant';
    return content.length === 1 && content[0]?.type === 'text' ? { role, content: content[0].text } : { role, content };
  });
}

function toAnthropicTool(tool: LlmToolSpec): Tool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters as Tool['input_schema'] };
}

/** Anthropic's stop reasons to the port's finish reasons. */
export function mapStopReason(reason: StopReason | null): LlmFinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/**
 * SDK errors to VendorError. An `event: error` inside the stream has no status; its type says what went
 * wrong (`overloaded_error` mid-stream is Anthropic's 529).
 */
export function mapAnthropicError(error: unknown): VendorError {
  if (error instanceof Anthropic.APIError) {
    const type = (error.error as { error?: { type?: string } } | undefined)?.error?.type;
    const status = error.status ?? (type ? STREAM_ERROR_STATUS[type] : undefined);
    return vendorErrorFromStatus('anthropic', error.message, status, error, retryAfterMs(error.headers));
  }
  return unexpectedError('anthropic', error);
}

/** The HTTP status each documented error type is sent with, for errors that arrive inside a stream. */
const STREAM_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};
