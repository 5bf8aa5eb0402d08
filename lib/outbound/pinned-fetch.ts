import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

import { pinnedLookup, resolveToolTarget, type Resolver } from './target-guard.js';

/**
 * A `fetch` for an SDK pointed at a URL a workspace user named (a custom model's endpoint,
 * docs/vendors-llm.md). Every request goes through the SSRF guard of the tools and webhooks
 * ({@link resolveToolTarget}: the URL's host is resolved, every address must be public unless the host is
 * on TOOL_ALLOWED_HOSTS) and then connects to exactly the address that was checked, so a DNS answer that
 * changes between check and connect cannot reach a private address. Redirects are not followed (node:http
 * never does): a redirect could point anywhere. A refused target rejects with ToolTargetRefusedError.
 *
 * Written over node:http rather than the global fetch because the global fetch (undici inside Node) takes
 * no `lookup`, and the npm `undici` that would is not a dependency; the response body streams as it
 * arrives, which server-sent events need.
 */
export function pinnedFetch(allowedHosts: readonly string[], resolver?: Resolver): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = await resolveToolTarget(url, allowedHosts, resolver);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body;
    if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError('pinnedFetch sends only string or byte bodies');
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const req = send(
        url,
        { method, headers, lookup: pinnedLookup(target) as never, servername: url.hostname, ...(init.signal ? { signal: init.signal } : {}) },
        (res: IncomingMessage) => resolve(toResponse(res, method)),
      );
      req.on('error', reject);
      if (body != null) req.end(body);
      else req.end();
    });
  };
}

/** A node:http response as a fetch Response whose body streams. */
function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const status = res.statusCode ?? 502;
  const empty = method === 'HEAD' || status === 204 || status === 304;
  if (empty) res.resume();
  return new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? '', headers });
}
