import { VendorError } from '../shared/errors.js';

/**
 * The telephony port's shared base: the retry loop every telephony adapter runs its requests through (the
 * other ports keep theirs in their own base.ts). Retries act on the shared VendorError's `retryable`.
 */
export interface RetryOptions {
  /** Total attempts including the first. */
  readonly attempts: number;
  /** First back-off; doubles each retry, with full jitter. */
  readonly baseDelayMs: number;
  /** Back-off ceiling, so one slow vendor cannot eat a Lambda's whole budget. */
  readonly maxDelayMs: number;
}

/**
 * Three attempts within about a second: enough to ride out a rate-limit blip or a dropped connection,
 * short enough that an API request (29 s gateway limit) still answers promptly when a vendor is down.
 */
export const DEFAULT_RETRY = { attempts: 3, baseDelayMs: 150, maxDelayMs: 1_000 } as const satisfies RetryOptions;

/**
 * Runs `fn`, retrying while it throws a retryable {@link VendorError}. `canRetry` narrows further: a
 * request that is not idempotent (buying a number, placing a call) passes one that allows only failures the
 * vendor guarantees it did not act on, such as a 429.
 */
export async function withRetry<T>(
  fn: () => Promise<T>,
  options: Partial<RetryOptions> & { canRetry?: (error: VendorError) => boolean } = {},
): Promise<T> {
  const { attempts, baseDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...options };
  const canRetry = options.canRetry ?? (() => true);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (error) {
      const retry = error instanceof VendorError && error.retryable && canRetry(error) && attempt < attempts;
      if (!retry) throw error;
      const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      await new Promise((r) => setTimeout(r, Math.random() * ceiling));
    }
  }
}
