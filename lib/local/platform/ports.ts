import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Polls `probe` until it resolves, or fails after `timeoutMs`. */
export async function waitFor(probe: () => Promise<unknown>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await probe();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`, { cause: lastError });
}

/**
 * Ends `child` when this process exits without stopping it: an uncaught exception, `process.exit()` from
 * a handler that skipped the stop. A JVM or a node server outlives its parent otherwise, holding its port
 * and a few hundred megabytes until someone finds it (a crash of `npm start` left DynamoDB Local running).
 * A signal that kills this process outright (SIGKILL) still leaves it.
 */
export function endWithThisProcess(child: ChildProcess): void {
  const end = () => child.kill('SIGTERM');
  process.once('exit', end);
  child.once('exit', () => process.off('exit', end));
}
