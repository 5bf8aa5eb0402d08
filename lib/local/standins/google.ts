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
  type ScriptRequest,
  type ScriptToolResult,
  type ScriptTurn,
  type StandinServer,
} from './llm-script.js';
import { LLM_MODELS, isKnown } from './catalog.js';
import { openStandinAccount, serveKeyCheck, standinAccountHolds } from './accounts.js';

/**
 * A stand-in for the Gemini API's `models.{model}:streamGenerateContent` (and `:generateContent`) under
 * `/v1beta` on loopback, which `@google/genai` runs against unchanged: `x-goog-api-key` (or `?key=`)
 * checked with Google's answers (403 without a key, 400 API_KEY_INVALID for a wrong one), Google's
 * `{error: {code, message, status}}` bodies, and with `alt=sse` SSE chunks of `candidates[].content.parts`
 * framed with CRLF as Google frames them, the last one carrying `finishReason`. Function calls arrive whole
 * in one chunk, the first with a `thoughtSignature`; for `gemini-3*` models a follow-up that drops the
 * signature is refused, as the real API does.
 */
export async function startGoogleStandin(options: { apiKey: string; control: LlmStandinControl }): Promise<StandinServer> {
  const { apiKey, control } = options;
  openStandinAccount('google', apiKey);
  return listen(async (req, res, body) => {
    if (serveKeyCheck('google', req, res)) return;
    const ex = new Exchange('google', req, res, body, control);
    const url = new URL(req.url ?? '/', 'http://standin');
    const route = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(url.pathname);
    if (req.method !== 'POST' || !route) return fail(ex, 404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`);
    const auth = authProblem(req, url, apiKey);
    if (auth) return ex.json(auth.status, auth.body, JSON_HEADERS);
    if (!isJsonObject(body)) {
      return fail(ex, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unexpected token.');
    }
    const model = decodeURIComponent(route[2] ?? '');
    const request = body as GenerateBody;
    const invalid = validate(request, model);
    if (invalid) return fail(ex, 400, 'INVALID_ARGUMENT', invalid);
    if (!isKnown(LLM_MODELS.google, model)) return scriptedFailure(ex, 404, model);
    const failure = control.takeFailure('google', model);
    if (failure === 'stall') return ex.stall();
    if (failure !== undefined) return scriptedFailure(ex, failure, model);

    const script = control.script;
    const view = toScriptRequest(request, model);
    const plan = planReply(script.reply(view), () => '');
    const promptTokenCount = promptTokens(view);
    const responseId = vendorId('', 22);
    // Gemini API models give function calls no id, so neither does the stand-in; the first call of a turn
    // carries the thought signature the follow-up must return.
    const callParts = plan.toolCalls.map((c, i) => ({
      functionCall: { name: c.name, args: JSON.parse(c.json) as unknown },
      ...(i === 0 && { thoughtSignature: Buffer.from(`standin-signature:${responseId}`).toString('base64') }),
    }));
    let candidatesTokenCount = 0;
    const chunk = (parts: unknown[], tokens: number, last: boolean): Record<string, unknown> => {
      candidatesTokenCount += tokens;
      return {
        candidates: [{ content: { parts, role: 'model' }, ...(last && { finishReason: 'STOP' }), index: 0 }],
        usageMetadata: {
          promptTokenCount,
          ...(candidatesTokenCount > 0 && { candidatesTokenCount }),
          totalTokenCount: promptTokenCount + candidatesTokenCount,
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokenCount }],
        },
        modelVersion: model,
        responseId,
      };
    };

    if (route[3] === 'generateContent') {
      await ex.sleep(script.ttftMs + tokenInterval(script) * plan.outputTokens);
      const parts = [...(plan.textTokens.length ? [{ text: plan.textTokens.join('') }] : []), ...callParts];
      return ex.json(200, chunk(parts.length ? parts : [{ text: '' }], plan.outputTokens, true), JSON_HEADERS);
    }

    // Without `alt=sse` the API streams one JSON array, element by element.
    const sse = url.searchParams.get('alt') === 'sse';
    let count = 0;
    const send = (value: Record<string, unknown>): void => {
      const json = JSON.stringify(value);
      ex.frame(sse ? `data: ${json}\r\n\r\n` : `${count === 0 ? '[' : ',\r\n'}${json}`);
      count += 1;
    };
    ex.startStream(sse ? {} : { 'content-type': 'application/json; charset=UTF-8' });
    const pace = pacer(ex, script, control.takeDrop());
    for (const [i, token] of plan.textTokens.entries()) {
      await pace();
      send(chunk([{ text: token }], 1, i === plan.textTokens.length - 1 && callParts.length === 0));
    }
    if (callParts.length) {
      // Arguments are produced token by token even though they are sent whole.
      for (const call of plan.toolCalls) for (let i = 0; i <= call.fragments.length; i += 1) await pace();
      send(chunk(callParts, plan.outputTokens - plan.textTokens.length, true));
    }
    if (count === 0) {
      await pace();
      send(chunk([{ text: '' }], 0, true));
    }
    if (!sse) ex.frame(']');
    ex.endStream();
  });
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8' };

interface Part {
  text?: unknown;
  functionCall?: { id?: unknown; name?: unknown; args?: unknown };
  functionResponse?: { id?: unknown; name?: unknown; response?: unknown };
  thoughtSignature?: unknown;
  thought?: unknown;
}

interface GenerateBody {
  contents?: unknown;
  systemInstruction?: { parts?: Part[] };
  tools?: { functionDeclarations?: { name?: unknown }[] }[];
  generationConfig?: { responseMimeType?: unknown; responseJsonSchema?: unknown };
}

function authProblem(req: IncomingMessage, url: URL, apiKey: string): { status: number; body: unknown } | undefined {
  const key = req.headers['x-goog-api-key'] ?? url.searchParams.get('key');
  if (!key) {
    return {
      status: 403,
      body: {
        error: {
          code: 403,
          message:
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
          status: 'PERMISSION_DENIED',
        },
      },
    };
  }
  if (!(standinAccountHolds('google', String(key)) || key === apiKey)) {
    return {
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
              metadata: { service: 'generativelanguage.googleapis.com' },
            },
          ],
        },
      },
    };
  }
  return undefined;
}

/** The checks the real API makes that our adapter could get wrong, in the real API's words. */
function validate(body: GenerateBody, model: string): string | undefined {
  if (!Array.isArray(body.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  const contents = body.contents as { role?: unknown; parts?: unknown }[];
  let lastCalls = 0;
  let lastRole: string | undefined;
  let lastHadResponses = false;
  // Gemini 3 checks signatures on the calls of the current turn: everything after the last user text.
  const currentTurnStart = contents.findLastIndex((c) => c.role === 'user' && Array.isArray(c.parts) && (c.parts as Part[]).some((p) => typeof p.text === 'string'));
  for (const [i, c] of contents.entries()) {
    if (c.role !== 'user' && c.role !== 'model') return 'Please use a valid role: user, model.';
    if (!Array.isArray(c.parts) || c.parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`;
    const parts = c.parts as Part[];
    const calls = parts.filter((p) => p.functionCall);
    const responses = parts.filter((p) => p.functionResponse);
    for (const [j, p] of parts.entries()) {
      if (p.functionResponse) {
        if (typeof p.functionResponse.name !== 'string' || p.functionResponse.name === '') {
          return `* GenerateContentRequest.contents[${i}].parts[${j}].function_response.name: Name cannot be empty.\n`;
        }
        const response = p.functionResponse.response;
        if (response === null || typeof response !== 'object' || Array.isArray(response)) {
          return `* GenerateContentRequest.contents[${i}].parts[${j}].function_response.response: Invalid value, expected a JSON object.\n`;
        }
      }
      if (p.functionCall && (typeof p.functionCall.name !== 'string' || p.functionCall.name === '')) {
        return `* GenerateContentRequest.contents[${i}].parts[${j}].function_call.name: Name cannot be empty.\n`;
      }
    }
    if (calls.length) {
      if (c.role !== 'model') return 'Please ensure that function call turns come from the model.';
      if (lastRole === 'model' && !lastHadResponses) {
        return 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
      }
      if (model.startsWith('gemini-3') && i > currentTurnStart && !calls[0]?.thoughtSignature) {
        const position = parts.indexOf(calls[0] as Part) + 1;
        return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(calls[0]?.functionCall?.name)}\` , position ${position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
      }
    }
    if (responses.length || lastCalls) {
      if (responses.length !== lastCalls) {
        return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
      }
    }
    lastCalls = calls.length;
    lastRole = String(c.role);
    lastHadResponses = responses.length > 0;
  }
  for (const [i, tool] of (body.tools ?? []).entries()) {
    for (const [j, d] of (tool.functionDeclarations ?? []).entries()) {
      if (typeof d.name !== 'string' || d.name === '') return `* GenerateContentRequest.tools[${i}].function_declarations[${j}].name: Name cannot be empty.\n`;
    }
  }
  return undefined;
}

function textOf(parts: Part[] | undefined): string {
  return (parts ?? [])
    .map((p) => (typeof p.text === 'string' && !p.thought ? p.text : ''))
    .join('');
}

/** The vendor-neutral view the script answers. */
function toScriptRequest(body: GenerateBody, model: string): ScriptRequest {
  const contents = body.contents as { role: 'user' | 'model'; parts: Part[] }[];
  const turns: ScriptTurn[] = [];
  const toolResults: ScriptToolResult[] = [];
  for (const c of contents) {
    for (const p of c.parts) {
      if (p.functionResponse) {
        const r = p.functionResponse.response as { output?: unknown };
        const content = 'output' in r ? r.output : r;
        toolResults.push({
          ...(typeof p.functionResponse.id === 'string' && { id: p.functionResponse.id }),
          name: String(p.functionResponse.name),
          content: typeof content === 'string' ? content : JSON.stringify(content),
        });
      }
    }
    const toolCalls = c.parts
      .filter((p) => p.functionCall)
      .map((p) => ({
        ...(typeof p.functionCall?.id === 'string' && { id: p.functionCall.id }),
        name: String(p.functionCall?.name),
        arguments: p.functionCall?.args ?? {},
      }));
    const text = textOf(c.parts);
    if (text || toolCalls.length) turns.push({ role: c.role === 'model' ? 'assistant' : 'user', text, toolCalls });
  }
  const last = contents.at(-1);
  return {
    vendor: 'google',
    model,
    messages: {
      system: textOf(body.systemInstruction?.parts),
      turns,
      toolResults,
      endsWithToolResult: last?.role === 'user' && last.parts.some((p) => p.functionResponse) && !textOf(last.parts).trim(),
    },
    tools: (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => String(d.name))),
    ...(isJsonObject(body.generationConfig?.responseJsonSchema) ? { responseSchema: body.generationConfig.responseJsonSchema as Record<string, unknown> } : {}),
  };
}

function fail(ex: Exchange, code: number, status: string, message: string, headers: Record<string, string> = {}): void {
  ex.json(code, { error: { code, message, status } }, { ...JSON_HEADERS, ...headers });
}

/** A scripted failure, with the canonical status Google sends for that HTTP status. */
function scriptedFailure(ex: Exchange, code: number, model: string): void {
  switch (code) {
    case 400:
      return fail(ex, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    case 401:
      return fail(ex, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    case 403:
      return fail(ex, 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    case 404:
      return fail(ex, 404, 'NOT_FOUND', `models/${model} is not found for API version v1beta, or is not supported for generateContent.`);
    case 429:
      return fail(ex, 429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
    case 500:
      return fail(ex, 500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
    case 503:
      return fail(ex, 503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    case 504:
      return fail(ex, 504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.');
    default:
      return fail(ex, code, code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION', `Request failed with status ${code} (scripted by the stand-in).`);
  }
}
