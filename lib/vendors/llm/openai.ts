import OpenAI, { type ClientOptions } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { retryAfterMs, type VendorError } from '../shared/errors.js';
import type { VendorEndpoint } from '../stt/port.js';
import { BaseLlm, unexpectedError, vendorErrorFromStatus, type LlmOptions } from './base.js';
import type { LlmEvent, LlmFinishReason, LlmMessage, LlmRequest, LlmToolCall, LlmToolSpec } from './port.js';

/** The public API; `OPENAI_BASE_URL` replaces it (a stand-in's URL ends in `/v1` too). */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * OpenAI chat completions, streamed, through the official `openai` SDK. Tool calls arrive as
 * `delta.tool_calls` fragments keyed by index and are yielded whole when the choice finishes; usage comes
 * from the extra chunk `stream_options.include_usage` adds before `[DONE]`.
 */
export class OpenAiLlm extends BaseLlm {
  readonly id: 'openai' | 'custom' = 'openai';
  private readonly client: OpenAI;

  /** `client` adds SDK options: the custom endpoint's pinned fetch and headers (custom.ts). */
  constructor(endpoint: VendorEndpoint, options: Partial<LlmOptions> = {}, client: Partial<ClientOptions> = {}) {
    super(options);
    this.client = new OpenAI({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseUrl,
      // The base retries, and only before output; the SDK's own retries would hide attempts from it.
      maxRetries: 0,
      // Explicit nulls: otherwise the SDK reads OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
      organization: null,
      project: null,
      ...client,
    });
  }

  protected async *run(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    const stream = await this.client.chat.completions.create(toOpenAiBody(request), { signal });
    const calls = new ToolCallAccumulator();
    let finish: LlmFinishReason | undefined;
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    for await (const chunk of stream) {
      const atMs = performance.now();
      if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
      const choice = chunk.choices[0];
      if (!choice) continue;
      const { delta } = choice;
      // A refusal is what the model chose to say instead; the caller should hear it rather than silence.
      const text = delta.content ?? delta.refusal;
      if (text) yield { type: 'text', delta: text, atMs };
      for (const fragment of delta.tool_calls ?? []) calls.add(fragment);
      if (choice.finish_reason) {
        finish = mapFinishReason(choice.finish_reason);
        // Calls are complete once the choice finishes; yield them now rather than after the usage chunk.
        for (const call of calls.drain()) yield { type: 'tool_call', call, atMs };
      }
    }
    // An aborted stream ends quietly in this SDK; the base knows it was aborted.
    if (signal.aborted || finish === undefined) return;
    yield { type: 'done', finishReason: finish, ...(usage && { usage }), atMs: performance.now() };
  }

  protected mapError(error: unknown): VendorError {
    return mapOpenAiError(error, this.id);
  }
}

/** The request body, exported for unit tests. */
export function toOpenAiBody(request: LlmRequest): ChatCompletionCreateParamsStreaming {
  return {
    model: request.model,
    messages: toOpenAiMessages(request.messages),
    ...(request.tools?.length && { tools: request.tools.map(toOpenAiTool) }),
    ...(request.responseFormat && {
      response_format: { type: 'json_schema' as const, json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: false } },
    }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    // `max_tokens` is deprecated and refused by reasoning models; this one works everywhere.
    ...(request.maxTokens !== undefined && { max_completion_tokens: request.maxTokens }),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** Neutral messages to chat-completions messages: tool results are `tool` messages after the assistant's calls. */
export function toOpenAiMessages(messages: readonly LlmMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // The API wants null, not "", beside tool calls.
          content: message.content === '' ? null : message.content,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

function toOpenAiTool(tool: LlmToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** OpenAI's finish reasons to the port's. */
export function mapFinishReason(reason: ChatCompletionChunk.Choice['finish_reason']): LlmFinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return reason;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'other';
  }
}

type ToolCallFragment = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

/** Joins `delta.tool_calls` fragments by index: the first carries id and name, the rest argument text. */
export class ToolCallAccumulator {
  private readonly byIndex = new Map<number, { id: string; name: string; arguments: string }>();

  add(fragment: ToolCallFragment): void {
    let call = this.byIndex.get(fragment.index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.byIndex.set(fragment.index, call);
    }
    if (fragment.id && !call.id) call.id = fragment.id;
    if (fragment.function?.name && !call.name) call.name = fragment.function.name;
    if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
  }

  /** The calls gathered so far, in index order, and forgets them. Empty arguments become `{}`. */
  drain(): LlmToolCall[] {
    const calls = [...this.byIndex.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ id: call.id, name: call.name, arguments: call.arguments === '' ? '{}' : call.arguments }));
    this.byIndex.clear();
    return calls;
  }
}

/** SDK errors to VendorError: the status decides; a connection error or timeout has none and is retryable. */
export function mapOpenAiError(error: unknown, vendor: 'openai' | 'custom' = 'openai'): VendorError {
  if (error instanceof OpenAI.APIError) {
    return vendorErrorFromStatus(vendor, error.message, error.status, error, retryAfterMs(error.headers));
  }
  return unexpectedError(vendor, error);
}
