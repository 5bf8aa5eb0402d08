import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';

/* The widget browser test's host site and its requests from other visitors' addresses. */

/** Global styles a careless site might have: inherited fonts and colours, every button hidden. */
const HOSTILE_CSS = '* { font: 31px serif !important; color: #f0f !important; letter-spacing: 4px; } button { display: none !important; }';

/** The customer's site: a page per path of `pages` with the widget tag for its attributes (none for null), under a strict CSP. */
export function startHost(base: string, pages: ReadonlyMap<string, Record<string, string> | null>): Promise<Server> {
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${base}`,
    `connect-src ${base} ${base.replace(/^http/, 'ws')}`,
    "style-src 'self'",
  ].join('; ');
  const server = createServer((req, res) => {
    if (req.url === '/host.css') {
      res.writeHead(200, { 'content-type': 'text/css' }).end(HOSTILE_CSS);
      return;
    }
    const attrs = pages.get(req.url ?? '');
    if (attrs === undefined) {
      res.writeHead(404).end();
      return;
    }
    const data = Object.entries(attrs ?? {}).map(([k, v]) => ` data-${k}="${v}"`).join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bakery</title><link rel="stylesheet" href="/host.css"></head>
<body><main><h1>The bakery</h1><p>Fresh bread every morning.</p><button id="own">Our own button</button></main>
${attrs === null ? '' : `<script src="${base}/widget/"${data} async></script>`}</body></html>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A POST sent from one loopback address (127.0.0.0/8 is all this machine's): another visitor's IP. */
export function postFrom(url: string, localAddress: string, headers: Record<string, string>, body: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', localAddress, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
