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
import { serveEmbeddings } from './openai-embeddings.js';

/**
 * A stand-in for OpenAI's chat completions (`POST /v1/chat/completions`) on loopback, close enough to the
 * wire that the official `openai` SDK runs against it unchanged: Bearer auth, OpenAI's error bodies and
 * statuses, `chat.completion.chunk` SSE ending in `data: [DONE]`, tool-call fragments by index, and the
 * usage chunk that `stream_options.include_usage` asks for. Non-streamed requests get a `chat.completion`.
 * Only the chat surface: the realtime transcription stand-in lives elsewhere (OPENAI_STT_BASE_URL).
 */
export async function startOpenAiLlmStandin(options: { apiKey: string; control: LlmStandinControl }): Promise<StandinServer> {
  const { apiKey, control } = options;
  openStandinAccount('openai', apiKey);
  return listen(async (req, res, body) => {
    if (serveKeyCheck('openai', req, res)) return;
    // Embeddings are not chat: answered apart, and not recorded among the chat requests tests assert on.
    if (req.method === 'POST' && new URL(req.url ?? '/', 'http://standin').pathname === '/v1/embeddings') {
      return serveEmbeddings(res, body, authProblem(req, apiKey));
    }
    const ex = new Exchange('openai', req, res, body, control);
    const url = new URL(req.url ?? '/', 'http://standin');
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      return fail(ex, 404, `Invalid URL (${req.method ?? 'GET'} ${url.pathname})`, 'invalid_request_error');
    }
    const auth = authProblem(req, apiKey);
    if (auth) return fail(ex, 401, auth.message, 'invalid_request_error', null, auth.code);
    if (!isJsonObject(body)) {
      return fail(
        ex,
        400,
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        'invalid_request_error',
      );
    }
    const request = body as ChatBody;
    const invalid = validate(request);
    if (invalid) return fail(ex, 400, invalid.message, 'invalid_request_error', invalid.param, invalid.code);
    if (!isKnown(LLM_MODELS.openai, request.model)) return scriptedFailure(ex, 404, request.model);
    const failure = control.takeFailure('openai', String(request.model));
    if (failure === 'stall') return ex.stall();
    if (failure !== undefined) return scriptedFailure(ex, failure, request.model, control.script.retryAfterSeconds);

    const script = control.script;
    const view = toScriptRequest(request);
    const plan = planReply(script.reply(view), () => vendorId('call_', 24));
    const usage = {
      prompt_tokens: promptTokens(view),
      completion_tokens: plan.outputTokens,
    };
    const usageBody = {
      ...usage,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
    const id = vendorId('chatcmpl-', 29);
    const created = Math.floor(Date.now() / 1000);
    const finishReason = plan.toolCalls.length ? 'tool_calls' : 'stop';
    const headers = { 'x-request-id': vendorId('req_', 32), 'openai-processing-ms': String(Math.round(script.ttftMs)) };

    if (request.stream !== true) {
      await ex.sleep(script.ttftMs + tokenInterval(script) * plan.outputTokens);
      return ex.json(200, completion(id, created, request.model, plan, finishReason, usageBody), headers);
    }

    const includeUsage = request.stream_options?.include_usage === true;
    const chunk = (choices: unknown[], usageValue?: unknown): string =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: request.model,
        service_tier: 'default',
        system_fingerprint: 'fp_standin',
        choices,
        // With include_usage every chunk carries `usage: null`, and one last chunk carries the figures.
        ...(includeUsage && { usage: usageValue ?? null }),
      })}\n\n`;
    const delta = (d: Record<string, unknown>, finish: string | null = null): string =>
      chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

    ex.startStream(headers);
    const pace = pacer(ex, script, control.takeDrop());
    let first = true;
    const role = (): Record<string, unknown> => {
      if (!first) return {};
      first = false;
      return { role: 'assistant' };
    };
    for (const token of plan.textTokens) {
      await pace();
      if (first) ex.frame(delta({ ...role(), content: '', refusal: null }));
      ex.frame(delta({ content: token }));
    }
    for (const [index, call] of plan.toolCalls.entries()) {
      await pace();
      const start = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
      ex.frame(delta(first ? { ...role(), content: null, tool_calls: [start], refusal: null } : { tool_calls: [start] }));
      for (const fragment of call.fragments) {
        await pace();
        ex.frame(delta({ tool_calls: [{ index, function: { arguments: fragment } }] }));
      }
    }
    if (first) {
      // An empty reply still opens with the role chunk.
      await pace();
      ex.frame(delta({ ...role(), content: '', refusal: null }));
    }
    ex.frame(delta({}, finishReason));
    if (includeUsage) ex.frame(chunk([], usageBody));
    ex.frame('data: [DONE]\n\n');
    ex.endStream();
  });
}

interface ChatMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
  tool_call_id?: unknown;
}

interface ChatBody {
  model?: unknown;
  messages?: unknown;
  tools?: { type?: unknown; function?: { name?: unknown } }[];
  stream?: unknown;
  stream_options?: { include_usage?: unknown };
  response_format?: { type?: unknown; json_schema?: { schema?: unknown } };
}

function authProblem(req: IncomingMessage, apiKey: string): { message: string; code: string | null } | undefined {
  const header = req.headers.authorization;
  const match = /^Bearer (.+)$/.exec(header ?? '');
  if (!match?.[1]) {
    return {
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). You can obtain an API key from https://platform.openai.com/account/api-keys.",
      code: null,
    };
  }
  if (!(standinAccountHolds('openai', match[1]) || match[1] === apiKey)) {
    const given = match[1];
    const masked = given.length > 8 ? `${given.slice(0, 3)}*********${given.slice(-4)}` : '***';
    return {
      message: `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      code: 'invalid_api_key',
    };
  }
  return undefined;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/** The checks the real API makes that our adapter could get wrong, with the real API's wording. */
function validate(body: ChatBody): { message: string; param: string | null; code: string | null } | undefined {
  if (typeof body.model !== 'string' || body.model === '') return { message: 'you must provide a model parameter', param: null, code: null };
  if (body.messages === undefined) return { message: "Missing required parameter: 'messages'.", param: 'messages', code: 'missing_required_parameter' };
  if (!Array.isArray(body.messages)) return { message: "Invalid type for 'messages': expected an array.", param: 'messages', code: 'invalid_type' };
  if (body.messages.length === 0) {
    return { message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", param: 'messages', code: 'empty_array' };
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    return { message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.", param: 'stream_options', code: null };
  }
  const messages = body.messages as ChatMessage[];
  let pending: { index: number; ids: Set<string> } | undefined;
  for (const [i, m] of messages.entries()) {
    if (typeof m.role !== 'string' || !ROLES.includes(m.role)) {
      return {
        message: `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        param: `messages[${i}].role`,
        code: 'invalid_value',
      };
    }
    if (m.role === 'tool') {
      if (!pending || typeof m.tool_call_id !== 'string' || !pending.ids.has(m.tool_call_id)) {
        return {
          message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${i}].role`,
          code: null,
        };
      }
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
        return { message: `Invalid type for 'messages[${i}].content': expected one of a string or array of objects.`, param: `messages[${i}].content`, code: 'invalid_type' };
      }
      pending.ids.delete(m.tool_call_id);
      if (pending.ids.size === 0) pending = undefined;
      continue;
    }
    if (pending) return unanswered(pending);
    if (m.role === 'assistant' && m.tool_calls !== undefined) {
      if (!Array.isArray(m.tool_calls) || m.tool_calls.length === 0) {
        return { message: `Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1.`, param: `messages[${i}].tool_calls`, code: 'empty_array' };
      }
      for (const [j, call] of m.tool_calls.entries()) {
        if (typeof call.id !== 'string' || call.type !== 'function' || typeof call.function?.name !== 'string' || typeof call.function.arguments !== 'string') {
          return { message: `Invalid 'messages[${i}].tool_calls[${j}]': expected {id, type: 'function', function: {name, arguments}}.`, param: `messages[${i}].tool_calls[${j}]`, code: 'invalid_value' };
        }
      }
      pending = { index: i, ids: new Set(m.tool_calls.map((c) => c.id as string)) };
    } else if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
      return { message: `Invalid value for 'content': expected a string, got ${m.content === null ? 'null' : typeof m.content}.`, param: `messages.[${i}].content`, code: null };
    }
  }
  if (pending) return unanswered(pending);
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool.type !== 'function' || typeof tool.function?.name !== 'string') {
      return { message: `Missing required parameter: 'tools[${i}].function'.`, param: `tools[${i}].function`, code: 'missing_required_parameter' };
    }
  }
  return undefined;
}

function unanswered(pending: { index: number; ids: Set<string> }): { message: string; param: string; code: null } {
  return {
    message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending.ids].join(', ')}`,
    param: `messages.[${pending.index}].role`,
    code: null,
  };
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: { type?: unknown; text?: unknown }) => (p.type === 'text' && typeof p.text === 'string' ? p.text : ''))
      .join('');
  }
  return '';
}

function parseJson(json: unknown): unknown {
  try {
    return JSON.parse(String(json));
  } catch {
    return json;
  }
}

/** The vendor-neutral view the script answers. */
function toScriptRequest(body: ChatBody): ScriptRequest {
  const messages = body.messages as ChatMessage[];
  const system: string[] = [];
  const turns: ScriptTurn[] = [];
  const toolResults: ScriptToolResult[] = [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') system.push(text(m.content));
    else if (m.role === 'user') turns.push({ role: 'user', text: text(m.content), toolCalls: [] });
    else if (m.role === 'assistant') {
      const toolCalls = (m.tool_calls ?? []).map((c) => {
        names.set(String(c.id), String(c.function?.name));
        return { id: String(c.id), name: String(c.function?.name), arguments: parseJson(c.function?.arguments) };
      });
      turns.push({ role: 'assistant', text: text(m.content), toolCalls });
    } else if (m.role === 'tool') {
      const id = String(m.tool_call_id);
      toolResults.push({ id, ...(names.has(id) && { name: names.get(id) }), content: text(m.content) });
    }
  }
  return {
    vendor: 'openai',
    model: String(body.model),
    messages: { system: system.join('\n\n'), turns, toolResults, endsWithToolResult: messages.at(-1)?.role === 'tool' },
    tools: (body.tools ?? []).map((t) => String(t.function?.name)),
    ...(body.response_format?.type === 'json_schema' && isJsonObject(body.response_format.json_schema?.schema)
      ? { responseSchema: body.response_format.json_schema.schema as Record<string, unknown> }
      : {}),
  };
}

function completion(id: string, created: number, model: unknown, plan: ReplyPlan, finishReason: string, usage: unknown): unknown {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: plan.textTokens.length ? plan.textTokens.join('') : null,
          refusal: null,
          annotations: [],
          ...(plan.toolCalls.length && {
            tool_calls: plan.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.json } })),
          }),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage,
    service_tier: 'default',
    system_fingerprint: 'fp_standin',
  };
}

function fail(ex: Exchange, status: number, message: string, type: string, param: string | null = null, code: string | null = null, headers: Record<string, string> = {}): void {
  ex.json(status, { error: { message, type, param, code } }, { 'x-request-id': vendorId('req_', 32), ...headers });
}

/** A scripted failure, with the body OpenAI sends for that status. */
function scriptedFailure(ex: Exchange, status: number, model: unknown, retryAfterSeconds = 1): void {
  switch (status) {
    case 400:
      return fail(ex, 400, 'Invalid request (scripted by the stand-in).', 'invalid_request_error');
    case 401:
      return fail(ex, 401, 'Incorrect API key provided: sk-*********tand. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', null, 'invalid_api_key');
    case 403:
      return fail(ex, 403, `Project does not have access to model \`${String(model)}\``, 'invalid_request_error', null, 'model_not_found');
    case 404:
      return fail(ex, 404, `The model \`${String(model)}\` does not exist or you do not have access to it.`, 'invalid_request_error', null, 'model_not_found');
    case 429:
      return fail(
        ex,
        429,
        `Rate limit reached for ${String(model)} on tokens per min (TPM): Limit 200000, Used 200000, Requested 100. Please try again in 30ms. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        'tokens',
        null,
        'rate_limit_exceeded',
        { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-remaining-tokens': '0' },
      );
    default:
      if (status >= 500) return fail(ex, status, 'The server had an error while processing your request. Sorry about that!', 'server_error');
      return fail(ex, status, `Request failed with status ${status} (scripted by the stand-in).`, 'invalid_request_error');
  }
}
