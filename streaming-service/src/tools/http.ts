import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { matchesType, placeholdersIn, type JsonValue, type ScalarValue, type ToolParameter } from '../../../lib/domain/tool.js';
import { pinnedLookup, resolveToolTarget, ToolTargetRefusedError, type Resolver } from './ssrf.js';

/** A prepared HTTP call: an `http` tool's config, or an integration template with the tool's headers. */
export interface HttpToolSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** May hold `{param}` placeholders, replaced URL-encoded. */
  readonly url: string;
  /** Decrypted header values. */
  readonly headers: Readonly<Record<string, string>>;
  /** A string (see {@link fillBody}) or a JSON object or array (see {@link fillJson}). */
  readonly body?: string | JsonValue;
  /** How a JSON-valued body goes on the wire; JSON unless a template says form-encoded. */
  readonly bodyEncoding?: 'json' | 'form';
  /** Values the tool owner fixed (an integration's settings); they fill placeholders before the model's. */
  readonly fixed?: Readonly<Record<string, ScalarValue>>;
}

export interface HttpToolOptions {
  /**
   * Whole-call budget. A caller is waiting on the line: after 8 s the model is better off telling them it
   * could not get an answer than keeping them in silence (a filler covers the first seconds).
   */
  readonly timeoutMs: number;
  /**
   * Largest response body kept. The model reads it as context: 64 KB is already far more than a useful
   * answer, and the cap stops a hostile endpoint from filling our memory.
   */
  readonly maxResponseBytes: number;
  /** TOOL_ALLOWED_HOSTS: hosts allowed to resolve to private addresses (local development, tests). */
  readonly allowedHosts: readonly string[];
  readonly resolver?: Resolver;
}

export const DEFAULT_HTTP_TOOL = { timeoutMs: 8_000, maxResponseBytes: 64 * 1024, allowedHosts: [] } as const satisfies HttpToolOptions;

/** What a tool call produced; `content` is what the model reads. */
export interface ToolOutcome {
  readonly ok: boolean;
  readonly content: string;
  readonly status?: number;
  readonly refused?: boolean;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The model's arguments after {@link coerceArguments}: each a value of its parameter's type. */
export type ToolArguments = Readonly<Record<string, ScalarValue>>;

const own = (args: ToolArguments, name: string): ScalarValue | undefined => (Object.hasOwn(args, name) ? args[name] : undefined);

/** Replaces `{param}` in a URL with the URL-encoded argument (missing arguments become empty). */
export function fillUrl(url: string, args: ToolArguments): string {
  return url.replace(PLACEHOLDER, (_m, name: string) => encodeURIComponent(String(own(args, name) ?? '')));
}

/**
 * Replaces `{param}` in a string body. A JSON body (starts with `{` or `[`) gets each value escaped as JSON
 * string content, so a caller's words cannot break out of the quotes the template put around them; other
 * bodies get the value as is. Missing arguments become empty.
 */
export function fillBody(body: string, args: ToolArguments): string {
  const json = /^\s*[[{]/.test(body);
  return body.replace(PLACEHOLDER, (_m, name: string) => {
    const value = String(own(args, name) ?? '');
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
}

/**
 * Fills a JSON-valued body. A string that is exactly one placeholder (`"{quantity}"`) becomes the argument
 * with its own type (a number stays a number); placeholders inside longer strings are replaced as text. The
 * result is serialized by JSON.stringify, so no argument can change the body's structure. A value whose
 * placeholder has no argument is left out, and so is an object or array left empty by that (an optional
 * `attendees: [{email}]` disappears rather than sending an empty address); undefined means "left out".
 */
export function fillJson(value: JsonValue, args: ToolArguments): JsonValue | undefined {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    if (whole) return own(args, whole[1]!);
    const names = [...value.matchAll(PLACEHOLDER)].map((m) => m[1]!);
    if (names.length > 0 && names.every((n) => own(args, n) === undefined)) return undefined;
    return value.replace(PLACEHOLDER, (_m, name: string) => String(own(args, name) ?? ''));
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => fillJson(v, args)).filter((v): v is JsonValue => v !== undefined);
    return items.length === 0 && value.length > 0 ? undefined : items;
  }
  const entries = Object.entries(value)
    .map(([k, v]) => [k, fillJson(v, args)] as const)
    .filter((e): e is readonly [string, JsonValue] => e[1] !== undefined);
  // fromEntries defines own properties, so a key named __proto__ or constructor stays plain data.
  return entries.length === 0 && Object.keys(value).length > 0 ? undefined : Object.fromEntries(entries);
}

/** A filled body and its content type, as they go on the wire. */
export function encodeBody(spec: Pick<HttpToolSpec, 'body' | 'bodyEncoding'>, args: ToolArguments): { text: string; contentType: string } | undefined {
  if (spec.body === undefined) return undefined;
  if (typeof spec.body === 'string') {
    const text = fillBody(spec.body, args);
    return { text, contentType: /^\s*[[{]/.test(text) ? 'application/json' : 'text/plain; charset=utf-8' };
  }
  const filled = fillJson(spec.body, args) ?? (Array.isArray(spec.body) ? [] : {});
  if (spec.bodyEncoding === 'form' && typeof filled === 'object' && filled !== null && !Array.isArray(filled)) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(filled)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    return { text: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  return { text: JSON.stringify(filled), contentType: 'application/json' };
}

/** The model's JSON arguments as an object (anything else reads as no arguments). */
export function parseArguments(json: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(json || '{}');
  } catch {
    return {};
  }
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

function coerceOne(value: unknown, param: ToolParameter): { value: ScalarValue } | { problem: string } {
  const type = param.type ?? 'string';
  let out: unknown = value;
  if (type === 'string' && typeof value !== 'string') out = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if ((type === 'number' || type === 'integer') && typeof value === 'string' && value.trim() !== '') out = Number(value.trim());
  if (type === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value.trim())) out = value.trim().toLowerCase() === 'true';
  if (!matchesType(out, type)) return { problem: `${param.name} must be ${type === 'integer' ? 'an integer' : `a ${type}`}` };
  const scalar = out as ScalarValue;
  if (!param.enum || param.enum.includes(scalar)) return { value: scalar };
  // Speech-to-text and models vary case ("High"); an enum of strings accepts its own values in any case.
  const folded = typeof scalar === 'string' ? param.enum.find((e) => typeof e === 'string' && e.toLowerCase() === scalar.toLowerCase()) : undefined;
  if (folded !== undefined) return { value: folded };
  return { problem: `${param.name} must be one of ${param.enum.map((e) => JSON.stringify(e)).join(', ')}` };
}

/**
 * Checks the model's arguments against the tool's parameters: each becomes a value of its declared type
 * (numeric and boolean strings are accepted, since models write `"3"` as often as `3`), enums hold, required
 * ones are present. Undeclared arguments are dropped (the schema offered forbids them). Returns the problems
 * instead when any argument is wrong, so the model can ask the caller and try again.
 */
export function coerceArguments(
  raw: Record<string, unknown>,
  params: readonly ToolParameter[],
): { ok: true; args: ToolArguments } | { ok: false; problems: string[] } {
  // No prototype: a parameter may be called `__proto__` or `constructor` and must stay plain data.
  const args: Record<string, ScalarValue> = Object.create(null) as Record<string, ScalarValue>;
  const problems: string[] = [];
  for (const param of params) {
    const value = Object.hasOwn(raw, param.name) ? raw[param.name] : undefined;
    if (value === undefined || value === null) {
      if (param.required) problems.push(`${param.name} is required`);
      continue;
    }
    const coerced = coerceOne(value, param);
    if ('problem' in coerced) problems.push(coerced.problem);
    else args[param.name] = coerced.value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, args };
}

/**
 * Runs one HTTP tool call: fills the templates, checks the target after DNS resolution, connects to the
 * checked address, and returns the status and (capped) body for the model. Never throws: every failure is a
 * result the model can talk about.
 */
export async function runHttpTool(
  spec: HttpToolSpec,
  modelArgs: ToolArguments,
  options: Partial<HttpToolOptions> = {},
): Promise<ToolOutcome> {
  const opts = { ...DEFAULT_HTTP_TOOL, ...options };
  // The owner's settings win over anything the model sent under the same name.
  const args: ToolArguments = { ...modelArgs, ...spec.fixed };
  // encodeURIComponent leaves dots alone and the URL parser resolves "." and ".." segments (even as
  // %2e%2e), so such an argument would move the request to another path on the host.
  const dotted = placeholdersIn(spec.url).find((name) => /^\.{1,2}$/.test(String(own(args, name) ?? '')));
  if (dotted) return { ok: false, content: JSON.stringify({ error: `${dotted} cannot be "." or ".."; the request was not sent` }) };
  let url: URL;
  try {
    url = new URL(fillUrl(spec.url, args));
  } catch {
    return { ok: false, content: JSON.stringify({ error: 'the tool URL is not valid' }) };
  }
  let target;
  try {
    target = await resolveToolTarget(url, opts.allowedHosts, opts.resolver);
  } catch (error) {
    if (error instanceof ToolTargetRefusedError) {
      return { ok: false, refused: true, content: JSON.stringify({ error: `${error.message}; the request was not sent` }) };
    }
    throw error;
  }
  const encoded = spec.method !== 'GET' ? encodeBody(spec, args) : undefined;
  const body = encoded?.text;
  const headers: Record<string, string> = { ...spec.headers };
  if (encoded && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = encoded.contentType;
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<ToolOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: ToolOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      url,
      // Redirects are not followed (node:http never does): a redirect could point at a private address.
      { method: spec.method, headers, lookup: pinnedLookup(target) as never, servername: url.hostname },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          const room = opts.maxResponseBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size += room;
            truncated = true;
            res.destroy();
            done();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          finish({
            ok: status >= 200 && status < 300,
            status,
            content: JSON.stringify({ status, body: text, ...(truncated ? { truncated: true } : {}) }),
          });
        };
        res.on('end', done);
        res.on('error', () => done());
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      // Said in seconds, the unit the model will use when it tells the caller.
      finish({ ok: false, content: JSON.stringify({ error: `timed out after ${opts.timeoutMs / 1000} s` }) });
    }, opts.timeoutMs);
    req.on('error', (error) => finish({ ok: false, content: JSON.stringify({ error: `request failed: ${error.message}` }) }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
