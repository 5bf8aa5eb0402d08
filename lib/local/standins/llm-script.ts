import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPersonaRequest, personaReply } from './llm-persona.js';

/**
 * What the three LLM stand-ins (OpenAI, Anthropic, Gemini) share: the script that decides what the "model"
 * says and how fast, the record of every request for wire assertions, and the HTTP plumbing (JSON bodies,
 * SSE that stops the moment the client hangs up). Each vendor file only translates between its wire format
 * and this neutral view.
 */

export type LlmStandinVendor = 'openai' | 'anthropic' | 'google';

/** One turn of the conversation a request carried, in a vendor-neutral shape. */
export interface ScriptTurn {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly toolCalls: readonly { readonly id?: string; readonly name: string; readonly arguments: unknown }[];
}

/** A tool result the request carried. */
export interface ScriptToolResult {
  readonly id?: string;
  readonly name?: string;
  readonly content: string;
}

/** The neutral view of one vendor request that a script replies to. */
export interface ScriptRequest {
  readonly vendor: LlmStandinVendor;
  readonly model: string;
  readonly messages: {
    /** Every system instruction, joined. */
    readonly system: string;
    readonly turns: readonly ScriptTurn[];
    readonly toolResults: readonly ScriptToolResult[];
    /** The request ends with tool results: the model is expected to use them. */
    readonly endsWithToolResult: boolean;
  };
  /** Names of the tools offered. */
  readonly tools: readonly string[];
  /** The JSON Schema the reply must match, when the request asked for structured output. */
  readonly responseSchema?: Record<string, unknown>;
}

/** What the "model" answers: text first, then tool calls (several mean parallel calls). */
export interface ScriptReply {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: object }[];
}

/** How the stand-ins behave. Change it between tests with {@link LlmStandinControl.set}. */
export interface LlmScript {
  reply: (request: ScriptRequest) => ScriptReply;
  /** Time from the request to the first token. */
  ttftMs: number;
  /** Pace after the first token; a token is a word or a fragment of tool arguments. 0 means no delay. */
  tokensPerSecond: number;
  /**
   * The next `times` requests fail with this HTTP status and the vendor's error body (for retry tests), or,
   * with `stall`, are accepted and never answered (a first-token timeout). `only` limits it to one vendor
   * or model: the stand-ins share one script, and a fallback test needs the primary down, not the fallback.
   */
  failNext?: { status: LlmFault; times: number; only?: LlmFaultScope };
  /** Cuts the connection after this many tokens of the next reply (a network failure mid-stream). */
  dropAfterTokens?: number;
  /** The `Retry-After` (seconds) OpenAI's and Anthropic's 429 answers carry; default 1. */
  retryAfterSeconds?: number;
}

/** What a scripted failure does: answer with this HTTP status, or never answer. */
export type LlmFault = number | 'stall';

/** Which requests a scripted failure hits; unset fields match any. */
export interface LlmFaultScope {
  readonly vendor?: LlmStandinVendor;
  readonly model?: string;
}

/**
 * The default "model": deterministic, so tests can assert what was said. It answers a summary request (a
 * system prompt mentioning a summary) with a summary of the user turns, a tool result with a sentence that
 * quotes it, an agent test's persona with its instructions' quoted lines, and anything else with a short
 * answer that repeats the caller's last words, in the language the prompt asks for (en, es, fr, de, pt, it,
 * nl, hi, ja; English for any other).
 */
export function defaultReply(request: ScriptRequest): ScriptReply {
  // Structured output: a JSON value that matches the schema, the same for the same schema.
  if (request.responseSchema) return { text: JSON.stringify(sampleOf(request.responseSchema)) };
  // An agent test's caller (lib/local/standins/llm-persona.ts): the lines its instructions quote, in order.
  if (isPersonaRequest(request)) return personaReply(request);
  const { system, turns, toolResults, endsWithToolResult } = request.messages;
  const userTexts = turns.filter((t) => t.role === 'user').map((t) => t.text.trim()).filter(Boolean);
  if (/summar/i.test(system)) {
    return { text: `Summary: the caller said ${userTexts.length ? userTexts.map((t) => `"${clip(t, 80)}"`).join(', then ') : 'nothing'}.` };
  }
  if (endsWithToolResult) {
    const last = toolResults.at(-1);
    return { text: `Here is what I found: ${clip(last?.content ?? '', 120)}. Anything else?` };
  }
  const lastUser = userTexts.at(-1);
  const lines = ECHO_LINES[answerLanguage(system)] ?? ECHO_LINES.en!;
  if (!lastUser) return { text: lines.hello };
  return { text: lines.echo(clip(lastUser, 160).replace(/[.!?。？！]+$/, '')) };
}

/** The default model's two answers in each language the platform has phrase tables for. */
const ECHO_LINES: Readonly<Record<string, { readonly hello: string; readonly echo: (words: string) => string }>> = {
  en: { hello: 'Hello! How can I help you today?', echo: (w) => `You said: ${w}. How can I help with that?` },
  es: { hello: '¡Hola! ¿En qué puedo ayudarle hoy?', echo: (w) => `Ha dicho: ${w}. ¿En qué puedo ayudarle con eso?` },
  fr: { hello: "Bonjour ! Comment puis-je vous aider aujourd'hui ?", echo: (w) => `Vous avez dit : ${w}. Comment puis-je vous aider ?` },
  de: { hello: 'Hallo! Wie kann ich Ihnen heute helfen?', echo: (w) => `Sie sagten: ${w}. Wie kann ich Ihnen dabei helfen?` },
  pt: { hello: 'Olá! Como posso ajudar hoje?', echo: (w) => `Você disse: ${w}. Como posso ajudar com isso?` },
  it: { hello: 'Salve! Come posso aiutarla oggi?', echo: (w) => `Ha detto: ${w}. Come posso aiutarla?` },
  nl: { hello: 'Hallo! Waarmee kan ik u vandaag helpen?', echo: (w) => `U zei: ${w}. Hoe kan ik u daarmee helpen?` },
  hi: { hello: 'नमस्ते! आज मैं आपकी कैसे मदद कर सकता हूँ?', echo: (w) => `आपने कहा: ${w}। मैं इसमें आपकी कैसे मदद कर सकता हूँ?` },
  ja: { hello: 'こんにちは。本日はどのようなご用件でしょうか?', echo: (w) => `「${w}」とおっしゃいましたね。どのようにお手伝いできますか?` },
};

/**
 * The language the system prompt tells the model to answer in (streaming-service/src/session/language.ts
 * names it with its tag: "The call is in Spanish (es-ES).", "The caller's last message was in German (de)."),
 * as a primary subtag; English when it names none.
 */
function answerLanguage(system: string): string {
  const named = [...system.matchAll(/(?:The call is in|last message was in) [^()\n]* \(([a-z]{2,3})(?:-[A-Za-z0-9]+)*\)/g)].at(-1);
  return named?.[1] ?? 'en';
}

/**
 * A deterministic value matching a JSON Schema: the first enum value, the maximum of a bounded number,
 * true, "standin" and one-item arrays; objects carry every property.
 */
export function sampleOf(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: unknown; enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown; maximum?: number; minimum?: number };
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v)]));
    case 'array':
      return [sampleOf(s.items)];
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return s.maximum ?? s.minimum ?? 1;
    case 'null':
      return null;
    default:
      return 'standin';
  }
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Defaults close to a fast hosted model (first token ~200 ms, ~80 tokens a second), so that `npm start`
 * feels like the real thing; tests set their own timing.
 */
export const DEFAULT_LLM_SCRIPT = { reply: defaultReply, ttftMs: 200, tokensPerSecond: 80 } as const satisfies LlmScript;

/** How one request ended, from the stand-in's side. */
export type RecordedOutcome = 'streaming' | 'completed' | 'aborted' | 'rejected' | 'dropped';

/** One request as it arrived, and what happened to it. Auth header values are never kept. */
export interface RecordedLlmRequest {
  readonly vendor: LlmStandinVendor;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-case header names; credentials replaced by `<redacted>`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, exactly as sent. */
  readonly body: unknown;
  readonly receivedAtMs: number;
  status: number;
  outcome: RecordedOutcome;
  /** Every SSE frame written, in order, as raw text. */
  readonly frames: string[];
  /** When the client hung up before the response was complete (`performance.now()`). */
  abortedAtMs?: number;
  /** Resolves with the outcome once the response is over. */
  readonly settled: Promise<RecordedOutcome>;
}

/** Enough for any test and for a long `npm start` session without growing forever. */
const MAX_RECORDED = 500;

/** The handle tests hold: the live script and the requests seen by every stand-in sharing it. */
export class LlmStandinControl {
  script: LlmScript;
  readonly requests: RecordedLlmRequest[] = [];
  private readonly initial: LlmScript;

  constructor(script: Partial<LlmScript> = {}) {
    this.initial = { ...DEFAULT_LLM_SCRIPT, ...script };
    this.script = { ...this.initial };
  }

  /** Changes part of the script; the rest stays. */
  set(script: Partial<LlmScript>): void {
    this.script = { ...this.script, ...script };
  }

  /** The next `times` requests (of `only`'s vendor or model, when given) fail with `status`, or stall. */
  failNext(status: LlmFault, times = 1, only?: LlmFaultScope): void {
    this.script = { ...this.script, failNext: { status, times, ...(only && { only }) } };
  }

  /** Back to the script given at start, and forgets recorded requests. */
  reset(): void {
    this.script = { ...this.initial };
    this.requests.length = 0;
  }

  /** Requests one vendor's stand-in saw, oldest first. */
  requestsFor(vendor: LlmStandinVendor): RecordedLlmRequest[] {
    return this.requests.filter((r) => r.vendor === vendor);
  }

  /** @internal Consumes one scripted failure for this request, if any. */
  takeFailure(vendor: LlmStandinVendor, model: string): LlmFault | undefined {
    const fail = this.script.failNext;
    if (!fail || fail.times <= 0) return undefined;
    if ((fail.only?.vendor && fail.only.vendor !== vendor) || (fail.only?.model && fail.only.model !== model)) return undefined;
    this.script = { ...this.script, failNext: fail.times > 1 ? { ...fail, times: fail.times - 1 } : undefined };
    return fail.status;
  }

  /** @internal Consumes the scripted mid-stream drop, if any. */
  takeDrop(): number | undefined {
    const drop = this.script.dropAfterTokens;
    if (drop === undefined) return undefined;
    this.script = { ...this.script, dropAfterTokens: undefined };
    return drop;
  }

  /** @internal */
  record(request: RecordedLlmRequest): void {
    this.requests.push(request);
    if (this.requests.length > MAX_RECORDED) this.requests.splice(0, this.requests.length - MAX_RECORDED);
  }
}

/** Thrown out of a pacing wait when the client has gone: the handler just stops. */
export class ClientGone extends Error {
  constructor() {
    super('client disconnected');
  }
}

/**
 * One exchange being answered. Watches the connection: once the client hangs up, `closed` aborts, waits
 * reject with {@link ClientGone} and nothing more is written, so a cancelled stream stops at once.
 */
export class Exchange {
  readonly record: RecordedLlmRequest;
  private readonly gone = new AbortController();
  private settle!: (outcome: RecordedOutcome) => void;

  constructor(
    vendor: LlmStandinVendor,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    body: unknown,
    control: LlmStandinControl,
  ) {
    const url = new URL(req.url ?? '/', 'http://standin');
    const settled = new Promise<RecordedOutcome>((resolve) => (this.settle = resolve));
    this.record = {
      vendor,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: redact(req.headers),
      body,
      receivedAtMs: performance.now(),
      status: 0,
      outcome: 'streaming',
      frames: [],
      settled,
    };
    control.record(this.record);
    res.on('close', () => {
      if (!res.writableFinished && this.record.outcome === 'streaming') {
        this.record.outcome = 'aborted';
        this.record.abortedAtMs = performance.now();
        this.settle('aborted');
      }
      this.gone.abort();
    });
  }

  get closed(): AbortSignal {
    return this.gone.signal;
  }

  /** Answers with a JSON body (an error, or a non-streamed completion). */
  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.record.status = status;
    this.finish(status >= 400 ? 'rejected' : 'completed');
    this.res.writeHead(status, { 'content-type': 'application/json', ...headers });
    this.res.end(JSON.stringify(body));
  }

  /** Starts an SSE response: headers go out at once, as the vendors do. */
  startStream(headers: Record<string, string> = {}): void {
    this.record.status = 200;
    this.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
    this.res.flushHeaders();
  }

  /** Writes one raw SSE frame (already framed, blank line included). */
  frame(text: string): void {
    if (this.gone.signal.aborted) throw new ClientGone();
    this.record.frames.push(text);
    this.res.write(text);
  }

  endStream(): void {
    this.finish('completed');
    this.res.end();
  }

  /** Cuts the connection without finishing the response, like a network failure. */
  drop(): void {
    this.finish('dropped');
    this.res.socket?.destroy();
  }

  /** Accepts the request and never answers it: the client gives up (its timeout) and hangs up. */
  stall(): Promise<void> {
    return new Promise((resolve) => {
      if (this.gone.signal.aborted) return resolve();
      this.gone.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Waits `ms`, or throws {@link ClientGone} as soon as the client hangs up. */
  sleep(ms: number): Promise<void> {
    if (this.gone.signal.aborted) return Promise.reject(new ClientGone());
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onGone = (): void => {
        clearTimeout(timer);
        reject(new ClientGone());
      };
      const timer = setTimeout(() => {
        this.gone.signal.removeEventListener('abort', onGone);
        resolve();
      }, ms);
      this.gone.signal.addEventListener('abort', onGone, { once: true });
    });
  }

  private finish(outcome: RecordedOutcome): void {
    if (this.record.outcome !== 'streaming') return;
    this.record.outcome = outcome;
    this.settle(outcome);
  }
}

function redact(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = /^(authorization|x-api-key|x-goog-api-key)$/.test(name) ? '<redacted>' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The reply laid out as the tokens a stand-in streams. */
export interface ReplyPlan {
  /** Text deltas: words with their leading space, so joined they give the text back exactly. */
  readonly textTokens: readonly string[];
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly json: string; readonly fragments: readonly string[] }[];
  readonly outputTokens: number;
}

/**
 * Splits a reply into tokens. Tool arguments are cut into short fragments so clients must join JSON that
 * arrives in pieces, as real models send it.
 */
export function planReply(reply: ScriptReply, newId: () => string): ReplyPlan {
  const textTokens = reply.text ? (reply.text.match(/\s*\S+/g) ?? []) : [];
  const toolCalls = (reply.toolCalls ?? []).map((call) => {
    const json = JSON.stringify(call.arguments);
    return { id: newId(), name: call.name, json, fragments: fragments(json, 8) };
  });
  return { textTokens, toolCalls, outputTokens: textTokens.length + toolCalls.reduce((n, c) => n + c.fragments.length + 1, 0) };
}

function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Waits before each token: the time to first token before the first, the token interval after. Cuts the
 * connection when the script asked for a drop after N tokens (the handler then stops via {@link ClientGone}).
 */
export function pacer(ex: Exchange, script: LlmScript, dropAfter: number | undefined): () => Promise<void> {
  const interval = tokenInterval(script);
  let sent = 0;
  return async () => {
    await ex.sleep(sent === 0 ? script.ttftMs : interval);
    if (dropAfter !== undefined && sent >= dropAfter) {
      ex.drop();
      throw new ClientGone();
    }
    sent += 1;
  };
}

/** Milliseconds between tokens at the script's pace. */
export function tokenInterval(script: LlmScript): number {
  return script.tokensPerSecond > 0 && Number.isFinite(script.tokensPerSecond) ? 1000 / script.tokensPerSecond : 0;
}

/** A rough, deterministic token count for usage figures: about one token per word. */
export function countTokens(texts: readonly string[]): number {
  return Math.max(1, texts.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0));
}

/** The prompt's token count for usage figures: the system prompt, every turn's text and every tool result. */
export function promptTokens(request: ScriptRequest): number {
  const { system, turns, toolResults } = request.messages;
  return countTokens([system, ...turns.map((t) => t.text), ...toolResults.map((r) => r.content)]);
}

/**
 * True when a parsed request body is a JSON object; every vendor refuses anything else (a bare value, an
 * array, or a body that did not parse) before looking further.
 */
export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return body !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body);
}

/** A random id with a vendor's prefix and alphabet length, e.g. `call_` + 24. */
export function vendorId(prefix: string, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

/** A stand-in HTTP server on loopback. */
export interface StandinServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 at a free port. `handle` gets the parsed body; a body that is not JSON gets
 * `undefined` and the vendor handler answers with its own 400. Handler failures other than a client
 * hanging up become a 500, so a stand-in bug shows up as a failed request rather than a hung test.
 */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse, body: unknown, raw: string) => Promise<void>,
): Promise<StandinServer> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      handle(req, res, body, raw).catch((error: unknown) => {
        if (error instanceof ClientGone) return;
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `stand-in failure: ${String(error)}` } }));
        } else {
          res.destroy();
        }
      });
    });
  });
  // SDK clients keep connections alive; without this, close() would wait for their idle sockets.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
