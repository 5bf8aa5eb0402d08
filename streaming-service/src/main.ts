/**
 * The streaming service as its own process: the container entry (streaming-service/Dockerfile bundles this
 * file). It serves the Twilio Media Streams WebSocket on `/media-stream` and `GET /health` on PORT, publishes
 * its active-session count (METRICS_MODE=emf on ECS) and drains on SIGTERM.
 *
 * `npm start` does not use this file: there the same server shares the platform's origin (./local.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from '../../lib/config.js';
import { buildDeps } from '../../lib/deps.js';
import { platformEnvironment } from './environment.js';
import { startSessionMetrics } from './metrics.js';
import { vendorProviders } from './providers.js';
import { createStreamingServer, type StreamingEnvironment, type StreamingServer } from './server.js';

/** A running standalone streaming service. */
export interface StandaloneService {
  readonly port: number;
  readonly http: Server;
  readonly streaming: StreamingServer;
  /** True once {@link StandaloneService.drain} started: new streams are refused, /health answers 503. */
  readonly draining: boolean;
  /**
   * Graceful stop: refuse new streams at once, wait until the active calls end or `timeoutMs` passes, then
   * end what is left (their history records are still written) and close the port. Idempotent.
   */
  drain(timeoutMs: number): Promise<void>;
}

/** Options of {@link startStandalone}; the defaults are the production wiring. */
export interface StandaloneOptions {
  /** The platform environment (defaults to the table, secrets and S3 from `config`, and the real vendors). */
  readonly environment?: () => Promise<StreamingEnvironment>;
  readonly host?: string;
  readonly log?: (entry: Record<string, unknown>) => void;
  /** How often a drain checks whether the last call ended; short, so an idle task exits quickly. */
  readonly drainPollMs?: number;
}

const defaultLog = (entry: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(entry)}\n`);

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

/**
 * Starts the streaming service on `config.PORT` (0 picks a free port). The platform dependencies are built on
 * the first stream (the server asks lazily), so a task whose secret is unreadable still answers /health while
 * the failure shows in its logs and on every refused stream.
 */
export async function startStandalone(config: Config, options: StandaloneOptions = {}): Promise<StandaloneService> {
  const log = options.log ?? defaultLog;
  const environment =
    options.environment ?? (async () => platformEnvironment(await buildDeps(config), vendorProviders(config)));
  const streaming = createStreamingServer({ environment });
  let draining: Promise<void> | undefined;

  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    // A draining task tells the load balancer (and anyone asking) it takes no new calls.
    if (draining && path === '/health') return sendJson(res, 503, { status: 'draining', activeSessions: streaming.activeSessions });
    if (streaming.handleRequest(req, res)) return;
    sendJson(res, 404, { error: { code: 'not_found', message: 'Not found.', details: [] } });
  });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (draining) {
      // Refused before the WebSocket handshake: Twilio sees a failed connect, not a call that goes silent.
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (!streaming.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.PORT, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const stopMetrics = startSessionMetrics({ config, activeSessions: () => streaming.activeSessions });
  const pollMs = options.drainPollMs ?? 250;

  const runDrain = async (timeoutMs: number) => {
    const started = performance.now();
    log({ level: 'info', msg: 'draining', activeSessions: streaming.activeSessions, timeoutMs });
    while (streaming.activeSessions > 0 && performance.now() - started < timeoutMs) {
      await new Promise((r) => setTimeout(r, pollMs));
    }
    const cut = streaming.activeSessions;
    if (cut > 0) log({ level: 'warn', msg: 'drain timeout: ending calls still in progress', activeSessions: cut });
    // Ends what is left and waits for every history record (and recording) to be written.
    await streaming.close();
    stopMetrics();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    log({ level: 'info', msg: 'drained', endedByDrain: cut, ms: Math.round(performance.now() - started) });
  };

  log({ level: 'info', msg: 'streaming service listening', port });
  return {
    port,
    http,
    streaming,
    get draining() {
      return draining !== undefined;
    },
    drain(timeoutMs) {
      draining ??= runDrain(timeoutMs);
      return draining;
    },
  };
}

/** The container's process: config from the environment, SIGTERM/SIGINT drain, exit when drained. */
async function main(): Promise<void> {
  const config = loadConfig();
  const service = await startStandalone(config);
  const stop = (signal: string) => {
    // ECS sends SIGTERM after the target has been deregistered (the ALB's deregistration delay already let
    // calls end) and SIGKILLs after the task's stopTimeout; DRAIN_TIMEOUT_MS stays below that.
    process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'signal', signal })}\n`);
    service.drain(config.DRAIN_TIMEOUT_MS).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'drain failed', error: String(error) })}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// Run only as the entry (the bundle, or `tsx streaming-service/src/main.ts`), not when a test imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'startup failed', error: String(error) })}\n`);
    process.exit(1);
  });
}
