/**
 * Named errors the domain throws. Each carries the HTTP status and the stable snake_case `code` that the
 * error body exposes; only errors under 500 ever reach a client (see lib/http/middleware.ts).
 */
import type { ErrorCode } from './error-codes.js';

export { ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface ErrorDetail {
  readonly field?: string;
  readonly message: string;
  readonly [key: string]: unknown;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: readonly ErrorDetail[] | Record<string, unknown> = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details: readonly ErrorDetail[] = [], code: ErrorCode = 'bad_request') {
    super(400, code, message, details);
  }
}

export class ValidationError extends AppError {
  constructor(details: readonly ErrorDetail[], message = 'The request did not pass validation.') {
    super(400, 'validation_failed', message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'A valid x-api-key header is required.') {
    super(401, 'unauthorized', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'This API key cannot act on that workspace.') {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super(404, 'not_found', `${what} was not found.`);
  }
}

export class ConflictError extends AppError {
  constructor(code: ErrorCode, message: string, details: readonly ErrorDetail[] = []) {
    super(409, code, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `The request body exceeds ${limitBytes} bytes.`, [
      { message: `limit is ${limitBytes} bytes` },
    ]);
  }
}

export class InsufficientCreditsError extends AppError {
  constructor(required: number, available: number) {
    super(402, 'insufficient_credits', 'The workspace has insufficient credits.', { required, available });
  }
}

/**
 * A service the request depends on (the table, a queue, the bucket) is busy or unreachable for now: nothing
 * was changed, and the same request may be sent again after `Retry-After` seconds (docs/api.md).
 */
export class ServiceUnavailableError extends AppError {
  constructor(readonly retryAfterSeconds = 2, options?: { cause?: unknown; message?: string }) {
    super(503, 'service_unavailable', options?.message ?? `We could not reach our data store in time; nothing was changed. Retry after ${retryAfterSeconds} seconds.`, [], options);
  }
}
