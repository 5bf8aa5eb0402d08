/**
 * The error every vendor adapter throws: which vendor, whether trying again could help, and the status the
 * vendor answered when there was one. The shared base retries only retryable errors (STYLE 8).
 */
export class VendorError extends Error {
  constructor(
    readonly vendor: string,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(`${vendor}: ${message}`, options);
    this.name = 'VendorError';
    this.retryAfterMs = options?.retryAfterMs;
  }

  /** How long the vendor asked us to wait before trying again (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
}

/** HTTP statuses worth retrying: throttling and the vendor's own failures. */
export const isRetryableStatus = (status: number | undefined): boolean =>
  status === undefined || status === 408 || status === 429 || status >= 500;

/**
 * A `Retry-After` answer in ms: `retry-after-ms` (OpenAI sends it), else `retry-after` in seconds or as an
 * HTTP date; undefined when absent or unreadable.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
