import { createServer, type IncomingMessage, type Server } from 'node:http';

/** A request a customer's backend received. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface ToolBackend {
  readonly server: Server;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly seen: SeenRequest[];
}

/**
 * A customer's backend on loopback for tool tests: records every request, then answers `answer` as JSON
 * after `delayMs` (a number, or per request by its 1-based count; Infinity never answers).
 */
export async function startToolBackend(answer: string, delayMs: number | ((n: number) => number) = 0): Promise<ToolBackend> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const delay = typeof delayMs === 'number' ? delayMs : delayMs(n);
      if (delay === Infinity) return;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answer);
      }, delay);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, seen };
}
