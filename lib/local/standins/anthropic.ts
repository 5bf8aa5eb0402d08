import type { IncomingMessage } from 'node:http';
import {
  Exchange,
  isJsonObject,
  listen,
  pacer,
  planReply,
  promptTokens,
  tokenInterval,
  vendorId,
  type LlmStandinControl,
  type ReplyPlan,
  type ScriptRequest,
  type ScriptToolResult,
  type ScriptTurn,
  type StandinServer,
} from './llm-script.js';
import { LLM_MODELS, isKnown } from './catalog.js';
import { openStandinAccount, serveKeyCheck, standinAccountHolds } from './accounts.js';

/**
 * A stand-in for Anthropic's Messages API (`POST /v1/messages`) on loopback that `@anthropic-ai/sdk` runs
 * against unchanged: the API key (`x-api-key` or bearer) and `anthropic-version` checked, Anthropic's `{type: "error", error}`
 * bodies, and SSE with `event:` lines in the documented order (message_start, then per block
 * content_block_start, content_block_delta*, content_block_stop, then message_delta and message_stop, with a
 * ping after the first block opens). It enforces the pairing rules the real API enforces for tool use, so
 * a malformed follow-up fails here as it would there.
 */
export async function startAnthropicStandin(options: { apiKey: string; control: LlmStandinControl }): Promise<StandinServer> {
  const { apiKey, control } = options;
  openStandinAccount('anthropic', apiKey);
  return listen(async (req, res, body) => {
    if (serveKeyCheck('anthropic', req, res)) return;
    const ex = new Exchange('anthropic', req, res, body, control);
    const url = new URL(req.url ?? '/', 'http://standin');
    if (req.method !== 'POST' || url.pathname !== '/v1/messages') return fail(ex, 404, 'not_found_error', 'Not Found');
    const auth = authProblem(req, apiKey);
    if (auth) return fail(ex, auth.status, auth.type, auth.message);
    if (!isJsonObject(body)) {
      return fail(ex, 400, 'invalid_request_error', 'There was an error parsing the body of your request. Please send a valid JSON object.');
    }
    const request = body as MessagesBody;
    const invalid = validate(request);
    if (invalid) return fail(ex, 400, 'invalid_request_error', invalid);
    if (!isKnown(LLM_MODELS.anthropic, request.model)) return scriptedFailure(ex, 404, request.model);
    const failure = control.takeFailure('anthropic', String(request.model));
    if (failure === 'stall') return ex.stall();
    if (failure !== undefined) return scriptedFailure(ex, failure, request.model, control.script.retryAfterSeconds);

    const script = control.script;
    const view = toScriptRequest(request);
    const plan = planReply(script.reply(view), () => vendorId('toolu_01', 22));
    const inputTokens = promptTokens(view);
    const id = vendorId('msg_01', 22);
    const stopReason = plan.toolCalls.length ? 'tool_use' : 'end_turn';
    const headers = { 'request-id': vendorId('req_01', 22), 'anthropic-organization-id': 'standin-org' };

    if (request.stream !== true) {
      await ex.sleep(script.ttftMs + tokenInterval(script) * plan.outputTokens);
      return ex.json(200, message(id, request.model, plan, stopReason, inputTokens), headers);
    }

    const event = (type: string, data: Record<string, unknown>): void => ex.frame(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ex.startStream(headers);
    const pace = pacer(ex, script, control.takeDrop());
    // Pacing per token; message_start goes out with the first one, when the model has read the prompt.
    let started = false;
    let pinged = false;
    let index = 0;
    const tick = async (): Promise<void> => {
      await pace();
      if (started) return;
      started = true;
      event('message_start', {
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
        },
      });
    };
    const openBlock = (block: Record<string, unknown>): void => {
      event('content_block_start', { index, content_block: block });
      if (!pinged) {
        pinged = true;
        event('ping', {});
      }
    };
    if (plan.textTokens.length) {
      for (const [i, token] of plan.textTokens.entries()) {
        await tick();
        if (i === 0) openBlock({ type: 'text', text: '' });
        event('content_block_delta', { index, delta: { type: 'text_delta', text: token } });
      }
      event('content_block_stop', { index });
      index += 1;
    }
    for (const call of plan.toolCalls) {
      await tick();
      openBlock({ type: 'tool_use', id: call.id, name: call.name, input: {} });
      // The API opens every tool input with an empty fragment.
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
      for (const fragment of call.fragments) {
        await pace();
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: fragment } });
      }
      event('content_block_stop', { index });
      index += 1;
    }
    if (!started) await tick();
    event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: plan.outputTokens } });
    event('message_stop', {});
    ex.endStream();
  });
}

interface Block {
  type?: unknown;
  text?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
}

interface MessagesBody {
  model?: unknown;
  max_tokens?: unknown;
  system?: unknown;
  messages?: unknown;
  tools?: { name?: unknown; input_schema?: unknown }[];
  stream?: unknown;
  output_config?: { format?: { type?: unknown; schema?: unknown } };
}

/**
 * The key arrives as `x-api-key` (the documented header) or as `Authorization: Bearer`, which is what the
 * installed `@anthropic-ai/sdk` 1.x sends for an API key; the API takes both.
 */
function authProblem(req: IncomingMessage, apiKey: string): { status: number; type: string; message: string } | undefined {
  const key = req.headers['x-api-key'] ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!key) return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
  if (!(standinAccountHolds('anthropic', String(key)) || key === apiKey)) return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
  if (!req.headers['anthropic-version']) return { status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required' };
  return undefined;
}

function blocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** The checks the real API makes that our adapter could get wrong, in the real API's words. */
function validate(body: MessagesBody): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) return 'system: Input should be a valid string';
  const messages = body.messages as { role?: unknown; content?: unknown }[];
  if (messages.length === 0) return 'messages: at least one message is required';
  let expectedResults: Set<string> | undefined;
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system') {
      return 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.';
    }
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages.${i}.content: Input should be a valid list`;
    const isFinalAssistant = m.role === 'assistant' && i === messages.length - 1;
    if ((typeof m.content === 'string' ? m.content === '' : m.content.length === 0) && !isFinalAssistant) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const list = blocks(m.content);
    const results = new Set<string>();
    let seenOther = false;
    for (const [j, b] of list.entries()) {
      if (b.type === 'text') {
        if (typeof b.text !== 'string' || b.text === '') return `messages.${i}.content.${j}.text: text content blocks must be non-empty`;
        seenOther = true;
      } else if (b.type === 'tool_use') {
        if (m.role !== 'assistant') return `messages.${i}.content.${j}: tool_use blocks can only be in assistant messages`;
        if (typeof b.id !== 'string' || typeof b.name !== 'string') return `messages.${i}.content.${j}.tool_use.id: Field required`;
        if (b.input === null || typeof b.input !== 'object' || Array.isArray(b.input)) return `messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`;
      } else if (b.type === 'tool_result') {
        if (m.role !== 'user') return `messages.${i}.content.${j}: tool_result blocks can only be in user messages`;
        if (typeof b.tool_use_id !== 'string' || !expectedResults?.has(b.tool_use_id)) {
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
        if (seenOther) return `messages.${i}.content.${j}: \`tool_result\` blocks must come first in a user message, before any other content.`;
        if (b.content !== undefined && typeof b.content !== 'string' && !Array.isArray(b.content)) return `messages.${i}.content.${j}.tool_result.content: Input should be a valid string`;
        results.add(b.tool_use_id);
      } else {
        return `messages.${i}.content.${j}.type: Input tag '${String(b.type)}' found using 'type' does not match any of the expected tags`;
      }
    }
    if (expectedResults) {
      const missing = [...expectedResults].filter((id) => !results.has(id));
      if (missing.length) {
        return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
    const uses = list.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    expectedResults = m.role === 'assistant' && uses.length ? new Set(uses) : undefined;
    if (expectedResults && i === messages.length - 1) {
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${uses.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (typeof tool.name !== 'string') return `tools.${i}.name: Field required`;
    if (tool.input_schema === null || typeof tool.input_schema !== 'object') return `tools.${i}.input_schema: Field required`;
  }
  return undefined;
}

function textOf(content: unknown): string {
  return blocks(content)
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('');
}

/** The vendor-neutral view the script answers. */
function toScriptRequest(body: MessagesBody): ScriptRequest {
  const messages = body.messages as { role: 'user' | 'assistant'; content: unknown }[];
  const turns: ScriptTurn[] = [];
  const toolResults: ScriptToolResult[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    const list = blocks(m.content);
    const toolCalls = list
      .filter((b) => b.type === 'tool_use')
      .map((b) => {
        names.set(String(b.id), String(b.name));
        return { id: String(b.id), name: String(b.name), arguments: b.input };
      });
    for (const b of list.filter((x) => x.type === 'tool_result')) {
      const id = String(b.tool_use_id);
      toolResults.push({ id, ...(names.has(id) && { name: names.get(id) }), content: typeof b.content === 'string' ? b.content : textOf(b.content) });
    }
    const text = textOf(m.content);
    if (text || toolCalls.length) turns.push({ role: m.role, text, toolCalls });
  }
  const last = messages.at(-1);
  const lastBlocks = blocks(last?.content);
  return {
    vendor: 'anthropic',
    model: String(body.model),
    messages: {
      system: typeof body.system === 'string' ? body.system : textOf(body.system),
      turns,
      toolResults,
      endsWithToolResult: last?.role === 'user' && lastBlocks.some((b) => b.type === 'tool_result') && !textOf(last.content).trim(),
    },
    tools: (body.tools ?? []).map((t) => String(t.name)),
    ...(body.output_config?.format?.type === 'json_schema' && isJsonObject(body.output_config.format.schema)
      ? { responseSchema: body.output_config.format.schema as Record<string, unknown> }
      : {}),
  };
}

function message(id: string, model: unknown, plan: ReplyPlan, stopReason: string, inputTokens: number): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(plan.textTokens.length ? [{ type: 'text', text: plan.textTokens.join('') }] : []),
      ...plan.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.json) as unknown })),
    ],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: plan.outputTokens, service_tier: 'standard' },
  };
}

function fail(ex: Exchange, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  const requestId = vendorId('req_01', 22);
  ex.json(status, { type: 'error', error: { type, message }, request_id: requestId }, { 'request-id': requestId, ...headers });
}

/** A scripted failure, with the error type Anthropic documents for that status. */
function scriptedFailure(ex: Exchange, status: number, model: unknown, retryAfterSeconds = 1): void {
  switch (status) {
    case 400:
      return fail(ex, 400, 'invalid_request_error', 'Invalid request (scripted by the stand-in).');
    case 401:
      return fail(ex, 401, 'authentication_error', 'invalid x-api-key');
    case 403:
      return fail(ex, 403, 'permission_error', 'Your API key does not have permission to use the specified resource.');
    case 404:
      return fail(ex, 404, 'not_found_error', `model: ${String(model)}`);
    case 413:
      return fail(ex, 413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    case 429:
      return fail(ex, 429, 'rate_limit_error', 'This request would exceed the rate limit for your organization of 50,000 input tokens per minute.', { 'retry-after': String(retryAfterSeconds) });
    case 529:
      return fail(ex, 529, 'overloaded_error', 'Overloaded');
    default:
      if (status >= 500) return fail(ex, status, 'api_error', 'Internal server error');
      return fail(ex, status, 'invalid_request_error', `Request failed with status ${status} (scripted by the stand-in).`);
  }
}
