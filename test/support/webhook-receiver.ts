import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WAIT_MS } from './progress.js';

/** One request the receiver got. */
export interface ReceivedHook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  readonly body: string;
  readonly json: { id: string; type: string; createdAt: string; workspaceId: string; data: Record<string, any> };
}

/** What the receiver answers; the next scripted answer per path is used once, then 200. */
export interface HookAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /**
   * A slow receiver: the status line, then one byte every this many milliseconds, never ending until
   * {@link WebhookReceiver.release} or until the sender hangs up.
   */
  readonly trickleMs?: number;
}

/** How a trickled answer ended: the test released it, or the sender hung up while it was still trickling. */
export type TrickleEnd = 'released' | 'abandoned';

/**
 * A customer's webhook receiver on loopback: records every POST (by path) and answers from a per-path
 * script, so a test can make one endpoint fail (500, 429) or answer slowly (a byte at a time) while another
 * succeeds.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private readonly scripts = new Map<string, HookAnswer[]>();
  private readonly waiters: { test: (h: ReceivedHook) => boolean; resolve: (h: ReceivedHook) => void }[] = [];
  private readonly trickles = new Map<ReceivedHook, { release: () => void; ended: Promise<TrickleEnd>; open: boolean }>();
  private server?: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const hook: ReceivedHook = { path, headers: req.headers, body, json: JSON.parse(body) as ReceivedHook['json'] };
        this.received.push(hook);
        const answer: HookAnswer = this.scripts.get(path)?.shift() ?? { status: 200, body: '{"ok":true}' };
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        if (answer.trickleMs !== undefined) {
          res.flushHeaders();
          const timer = setInterval(() => res.write(' '), answer.trickleMs);
          let released = false;
          const trickle = {
            open: true,
            release: () => {
              released = true;
              res.end(answer.body ?? '');
            },
            ended: new Promise<TrickleEnd>((resolve) =>
              res.on('close', () => {
                clearInterval(timer);
                trickle.open = false;
                resolve(released ? 'released' : 'abandoned');
              }),
            ),
          };
          this.trickles.set(hook, trickle);
        } else res.end(answer.body ?? '');
        for (const w of [...this.waiters]) {
          if (w.test(hook)) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve(hook);
          }
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The URL of a path on this receiver. */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The next answers for a path, in order. */
  script(path: string, ...answers: HookAnswer[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
  }

  /** Whether the trickled answer to `hook` is still being sent (neither released nor hung up on). */
  trickling(hook: ReceivedHook): boolean {
    return this.trickles.get(hook)?.open ?? false;
  }

  /** How the trickled answer to `hook` ended, once it has. */
  trickleEnded(hook: ReceivedHook): Promise<TrickleEnd> {
    const trickle = this.trickles.get(hook);
    if (!trickle) throw new Error(`no trickled answer to ${hook.path}`);
    return trickle.ended;
  }

  /** Ends every trickled answer to `path` that is still open (its sender gets the rest of the answer). */
  release(path: string): void {
    for (const [hook, trickle] of this.trickles) if (hook.path === path && trickle.open) trickle.release();
  }

  /** Requests to one path, in arrival order. */
  at(path: string): ReceivedHook[] {
    return this.received.filter((h) => h.path === path);
  }

  /** Resolves with the first request (already received or still to come) that passes `test`. */
  waitFor(test: (h: ReceivedHook) => boolean, timeoutMs = WAIT_MS): Promise<ReceivedHook> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching webhook in time')), timeoutMs);
      this.waiters.push({ test, resolve: (h) => { clearTimeout(timer); resolve(h); } });
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
