import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, resolveToolTarget, type Resolver } from './target-guard.js';

/** A `fetch` as SDKs take it: the MCP SDK's transports (its `FetchLike`) and the OpenAI SDK (a custom model). */
export type PinnedFetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface PinnedFetchOptions {
  /** TOOL_ALLOWED_HOSTS: hosts allowed to resolve to private addresses (local development, tests). */
  readonly allowedHosts: readonly string[];
  /**
   * Most bytes one response body may carry; past it the body errors. A server's whole tool listing is held
   * under 200 KB (lib/domain/mcp-tool.ts) and a model's streamed answer is a few KB, so 4 MB is generous
   * and still stops a hostile server filling memory.
   */
  readonly maxResponseBytes?: number;
  readonly resolver?: Resolver;
}

const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Statuses whose Response may not have a body (the Fetch standard's "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch for an SDK pointed at a URL a workspace user named (an MCP server, a custom model's endpoint), over
 * node:http: the global fetch (undici) takes no `lookup`. It checks every request's target with the SSRF
 * guard (lib/outbound/target-guard.ts) and connects to exactly the address it checked, as HTTP tools do
 * (streaming-service/src/tools/http.ts):
 * each request is judged on its own, so a redirect the caller follows, or an SSE endpoint on another host,
 * is checked too. Redirects are never followed here. A refused target rejects with ToolTargetRefusedError.
 */
export function pinnedFetch(options: PinnedFetchOptions): PinnedFetch {
  const cap = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = await resolveToolTarget(url, options.allowedHosts, options.resolver);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(await new Response(init.body).arrayBuffer());
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, { method: init.method ?? 'GET', headers, lookup: pinnedLookup(target) as never, servername: url.hostname, signal }, (res: IncomingMessage) => {
        resolve(toResponse(res, url, cap));
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  };
}

/** The node response as a Fetch Response whose body errors once it passes `cap` bytes. */
function toResponse(res: IncomingMessage, url: URL, cap: number): Response {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  if (NULL_BODY.has(status)) {
    res.resume();
    return new Response(null, { status, headers });
  }
  // A stream of our own rather than Readable.toWeb: node's adapter still enqueues after the reader cancelled
  // (an SSE stream closed mid-event), which throws outside any caller.
  let size = 0;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: Error) => {
        if (done) return;
        done = true;
        controller.error(error);
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (done) return;
        size += chunk.length;
        if (size > cap) return fail(new Error(`the response from ${url.host} is over ${cap} bytes`));
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.on('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      res.on('error', fail);
      res.on('aborted', () => fail(new Error(`the connection to ${url.host} was cut`)));
    },
    pull() {
      res.resume();
    },
    cancel() {
      done = true;
      res.destroy();
    },
  });
  const response = new Response(body, { status, headers });
  // Fetch's Response.url is read-only; the SDK reads it to name a redirect it did not follow.
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}
