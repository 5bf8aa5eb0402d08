import { randomUUID } from 'node:crypto';
import { ApiError, FinishReason, GoogleGenAI, type Content, type FunctionDeclaration, type GenerateContentParameters, type Part } from '@google/genai';
import type { VendorError } from '../shared/errors.js';
import type { VendorEndpoint } from '../stt/port.js';
import { BaseLlm, alternatingTurns, parseArguments, systemPrompt, unexpectedError, vendorErrorFromStatus, type LlmOptions } from './base.js';
import type { LlmEvent, LlmFinishReason, LlmMessage, LlmRequest, LlmToolCall, LlmToolSpec } from './port.js';

/** The Gemini API's host; `GOOGLE_BASE_URL` replaces it. The SDK appends `/v1beta/models/...`. */
export const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Function calling, system instructions and JSON-schema parameters all live in v1beta. */
const API_VERSION = 'v1beta';

/**
 * Gemini API models give function calls no id. The port needs one to pair a result with its call, so the
 * adapter makes one up with this prefix and leaves such ids off the wire when the call comes back.
 */
const LOCAL_ID_PREFIX = 'gemini-local-';

/**
 * Google Gemini through `@google/genai`: `models.generateContentStream`, which posts
 * `/v1beta/models/{model}:streamGenerateContent?alt=sse` with the `x-goog-api-key` header. Function calls
 * arrive whole (args as an object) and are yielded as they come; a call's `thoughtSignature` rides along in
 * {@link LlmToolCall.signature} so the follow-up can return it, as Gemini 3 requires.
 */
export class GoogleLlm extends BaseLlm {
  readonly id = 'google' as const;
  private readonly client: GoogleGenAI;

  constructor(endpoint: VendorEndpoint, options: Partial<LlmOptions> = {}) {
    super(options);
    this.client = new GoogleGenAI({
      apiKey: endpoint.apiKey,
      // Explicit: otherwise GOOGLE_GENAI_USE_VERTEXAI in the environment could switch the backend.
      vertexai: false,
      // No `retryOptions`: the SDK then sends each request once, and the base decides about retries.
      httpOptions: { baseUrl: endpoint.baseUrl, apiVersion: API_VERSION },
    });
  }

  protected async *run(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    const params = toGeminiParams(request);
    const stream = await this.client.models.generateContentStream({ ...params, config: { ...params.config, abortSignal: signal } });
    let finish: FinishReason | undefined;
    let sawCall = false;
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    for await (const chunk of stream) {
      const atMs = performance.now();
      const meta = chunk.usageMetadata;
      if (meta) {
        // Thinking tokens are billed as output and are part of what the model produced.
        usage = { inputTokens: meta.promptTokenCount ?? 0, outputTokens: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0) };
      }
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        // Thought summaries (only sent when asked for) are not for the caller's ears.
        if (part.thought) continue;
        if (part.text) yield { type: 'text', delta: part.text, atMs };
        if (part.functionCall) {
          sawCall = true;
          const { id, name, args } = part.functionCall;
          const call: LlmToolCall = {
            id: id ?? `${LOCAL_ID_PREFIX}${randomUUID()}`,
            name: name ?? '',
            arguments: JSON.stringify(args ?? {}),
            ...(part.thoughtSignature && { signature: part.thoughtSignature }),
          };
          yield { type: 'tool_call', call, atMs };
        }
      }
      if (candidate?.finishReason) finish = candidate.finishReason;
    }
    if (signal.aborted || finish === undefined) return;
    yield { type: 'done', finishReason: mapGeminiFinishReason(finish, sawCall), ...(usage && { usage }), atMs: performance.now() };
  }

  protected mapError(error: unknown): VendorError {
    return mapGoogleError(error);
  }
}

/**
 * The SDK call's parameters, exported for unit tests. Automatic continuation is off: it would re-open a
 * dropped stream inside the SDK, out of the base's sight, and the base must be the one deciding whether a
 * retry could repeat speech.
 */
export function toGeminiParams(request: LlmRequest): GenerateContentParameters & { config: NonNullable<GenerateContentParameters['config']> } {
  const system = systemPrompt(request.messages);
  return {
    model: request.model,
    contents: toGeminiContents(request.messages),
    config: {
      ...(system && { systemInstruction: system }),
      ...(request.tools?.length && { tools: [{ functionDeclarations: request.tools.map(toDeclaration) }] }),
      ...(request.responseFormat && { responseMimeType: 'application/json', responseJsonSchema: request.responseFormat.schema }),
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
      automaticContinuation: false,
    },
  };
}

/**
 * Neutral messages to Gemini contents: assistant turns are `model`, tool results are `functionResponse`
 * parts in a user turn (the API wants as many responses as the model turn had calls, in one turn), and
 * consecutive turns of one role merge. A conversation opening with the agent's greeting gets a placeholder
 * user turn first, as with Anthropic.
 */
export function toGeminiContents(messages: readonly LlmMessage[]): Content[] {
  const turns = alternatingTurns<Part>(messages, {
    text: (text) => ({ text }),
    toolCall: (call) => ({
      functionCall: { ...wireId(call.id), name: call.name, args: parseArguments(call.arguments) },
      ...(call.signature && { thoughtSignature: call.signature }),
    }),
    toolResult: (message) => ({
      functionResponse: { ...wireId(message.toolCallId), name: message.name, response: toResponse(message.content) },
    }),
  });
  return turns.map(({ fromUser, parts }) => ({ role: fromUser ? 'user' : 'model', parts }));
}

function wireId(id: string): { id?: string } {
  return id.startsWith(LOCAL_ID_PREFIX) ? {} : { id };
}

/**
 * A tool result as the object `functionResponse.response` must be. The API documents the key `output` for
 * a function's result; JSON text is passed as the value it encodes so the model reads structure, not quotes.
 */
function toResponse(content: string): Record<string, unknown> {
  try {
    return { output: JSON.parse(content) as unknown };
  } catch {
    return { output: content };
  }
}

function toDeclaration(tool: LlmToolSpec): FunctionDeclaration {
  // `parametersJsonSchema` takes the JSON Schema as is; `parameters` would want Google's OpenAPI subset.
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters };
}

/** Gemini's finish reasons to the port's. Gemini says STOP after function calls too. */
export function mapGeminiFinishReason(reason: FinishReason, sawCall: boolean): LlmFinishReason {
  switch (reason) {
    case FinishReason.STOP:
      return sawCall ? 'tool_calls' : 'stop';
    case FinishReason.MAX_TOKENS:
      return 'length';
    case FinishReason.SAFETY:
    case FinishReason.RECITATION:
    case FinishReason.BLOCKLIST:
    case FinishReason.PROHIBITED_CONTENT:
    case FinishReason.SPII:
    case FinishReason.IMAGE_SAFETY:
    case FinishReason.IMAGE_PROHIBITED_CONTENT:
      return 'content_filter';
    default:
      return 'other';
  }
}

/** SDK errors to VendorError: `ApiError` carries the HTTP status (also for an error sent inside the stream). */
export function mapGoogleError(error: unknown): VendorError {
  if (error instanceof ApiError) return vendorErrorFromStatus('google', error.message, error.status, error);
  return unexpectedError('google', error);
}
