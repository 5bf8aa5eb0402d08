import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, resolveToolTarget, ToolTargetRefusedError, type Resolver } from './ssrf.js';

/** A prepared HTTP call: an `http` tool's config, or an integration template with the tool's headers. */
export interface HttpToolSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** May hold `{param}` placeholders, replaced URL-encoded. */
  readonly url: string;
  /** Decrypted header values. */
  readonly headers: Readonly<Record<string, string>>;
  /** May hold `{param}` placeholders; see {@link fillBody}. */
  readonly body?: string;
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

/** Replaces `{param}` in a URL with the URL-encoded argument (missing arguments become empty). */
export function fillUrl(url: string, args: Readonly<Record<string, string>>): string {
  return url.replace(PLACEHOLDER, (_m, name: string) => encodeURIComponent(args[name] ?? ''));
}

/**
 * Replaces `{param}` in a body. A JSON body (starts with `{` or `[`) gets each value escaped as JSON string
 * content, so a caller's words cannot break out of the quotes the template put around them; other bodies
 * get the value as is. Missing arguments become empty.
 */
export function fillBody(body: string, args: Readonly<Record<string, string>>): string {
  const json = /^\s*[[{]/.test(body);
  return body.replace(PLACEHOLDER, (_m, name: string) => {
    const value = args[name] ?? '';
    return json ? JSON.stringify(value).slice(1, -1) : value;
  });
}

/** The model's JSON arguments as strings (tool parameters are strings in the schema we offer). */
export function parseArguments(json: string): Record<string, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(json || '{}');
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}

/**
 * Runs one HTTP tool call: fills the templates, checks the target after DNS resolution, connects to the
 * checked address, and returns the status and (capped) body for the model. Never throws: every failure is a
 * result the model can talk about.
 */
export async function runHttpTool(
  spec: HttpToolSpec,
  args: Readonly<Record<string, string>>,
  options: Partial<HttpToolOptions> = {},
): Promise<ToolOutcome> {
  const opts = { ...DEFAULT_HTTP_TOOL, ...options };
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
  const body = spec.body !== undefined && spec.method !== 'GET' ? fillBody(spec.body, args) : undefined;
  const headers: Record<string, string> = { ...spec.headers };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain; charset=utf-8';
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
      finish({ ok: false, content: JSON.stringify({ error: `no answer within ${opts.timeoutMs} ms` }) });
    }, opts.timeoutMs);
    req.on('error', (error) => finish({ ok: false, content: JSON.stringify({ error: `request failed: ${error.message}` }) }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
