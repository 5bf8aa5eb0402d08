import { VendorError } from '../shared/errors.js';
import type { TtsBaseOptions } from './base-options.js';

/**
 * Opening a TTS vendor's socket (./base.ts): bounded attempts with back-off, each under a timeout and the
 * caller's signal, and the error and close-code rules that decide whether another attempt can help.
 */

/** Wraps anything thrown into a {@link VendorError}; unknown failures (network) are retryable. */
export function toVendorError(vendor: string, error: unknown): VendorError {
  if (error instanceof VendorError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new VendorError(vendor, message, true, undefined, { cause: error });
}

/**
 * WebSocket close codes after which trying again cannot help: policy violation (bad key, too many
 * contexts), unsupported or invalid data, and the 4xxx range vendors use for request errors.
 */
export function isRetryableClose(code: number): boolean {
  return !(code === 1003 || code === 1007 || code === 1008 || (code >= 4000 && code < 5000));
}

/** `http(s)://host` (how base URLs are configured) as the matching `ws(s)://host`, without a trailing slash. */
export function toWebSocketBase(url: string): string {
  return url.replace(/^http(s?):\/\//, 'ws$1://').replace(/\/+$/, '');
}

/**
 * Opens the link with `openLink`, retrying retryable failures up to `connectAttempts` with doubling back-off;
 * stops early when the caller aborts or the session closed meanwhile (`closed`).
 */
export async function connectWithRetry(
  provider: string,
  base: TtsBaseOptions,
  openLink: (signal: AbortSignal) => Promise<void>,
  signal: AbortSignal | undefined,
  closed: () => boolean,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await connectOnce(provider, base, openLink, signal);
      return;
    } catch (error) {
      const failure = toVendorError(provider, error);
      if (!failure.retryable || attempt >= base.connectAttempts || signal?.aborted || closed()) {
        throw failure;
      }
      await new Promise((r) => setTimeout(r, base.connectBackoffMs * 2 ** (attempt - 1)));
    }
  }
}

/** One attempt, bounded by `connectTimeoutMs` and the caller's signal. */
async function connectOnce(
  provider: string,
  base: TtsBaseOptions,
  openLink: (signal: AbortSignal) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) throw new VendorError(provider, 'connect aborted', false, undefined, { cause: signal.reason });
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new VendorError(provider, `connect timed out after ${base.connectTimeoutMs} ms`, true)),
    base.connectTimeoutMs,
  );
  const onAbort = () => controller.abort(new VendorError(provider, 'connect aborted', false, undefined, { cause: signal?.reason }));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await openLink(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
