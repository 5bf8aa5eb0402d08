/**
 * The table could not take a write in time: other writers held its items for the whole budget, or it kept
 * failing on its side. Nothing was written; the same request may be sent again.
 */
export class StoreBusyError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The table stayed busy for the whole retry budget', options);
    this.name = 'StoreBusyError';
  }
}

/**
 * Which failures mean "busy or unreachable for now" rather than "a bug on our side": the table, a queue or
 * the bucket throttling, timing out, dropping the connection or failing on its side, after the SDK's own
 * retries, and a transaction that stayed contended for its whole budget. The handler answers these 503 with
 * `Retry-After` on every route (docs/api.md), never 500.
 */
const TRANSIENT_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  'ServiceUnavailable',
  'InternalServerError',
  'InternalFailure',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
  'TransactionInProgressException',
]);

/** Node's own words for a connection that failed or was dropped on the way. */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

/** Cancellation reasons that say only "someone else held the items" or "too much at once", never a condition. */
const CONTENTION_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'None']);

export function isTransientServiceFailure(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (error instanceof StoreBusyError) return true;
  const e = error as Error & { $retryable?: unknown; $fault?: string; code?: string; CancellationReasons?: { Code?: string }[] };
  if (TRANSIENT_NAMES.has(e.name) || (e.code !== undefined && TRANSIENT_CODES.has(e.code)) || e.$retryable) return true;
  if (e.$fault === 'server') return true;
  if (e.name === 'TransactionCanceledException') {
    const reasons = e.CancellationReasons ?? [];
    return reasons.length > 0 && reasons.every((r) => CONTENTION_REASONS.has(r.Code ?? 'None')) && reasons.some((r) => r.Code !== 'None');
  }
  return isTransientServiceFailure(e.cause, depth + 1);
}
