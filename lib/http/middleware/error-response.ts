import { TooManyWidgetSessionsError } from '../../domain/access.js';
import { AppError, ServiceUnavailableError } from '../../domain/errors.js';
import type { RouteSpec } from '../../infra/routes.js';
import { describeError, log } from '../../observability/log.js';
import { RateLimitedError, rateLimitHeaders } from '../../services/rate-limits.js';
import { isTransientServiceFailure } from '../../store/transient.js';
import { corsHeaders } from './cors.js';
import { json, type RouteMiddleware } from './state.js';

/**
 * The error handler, last to run: an AppError under 500 answers with its own status, code and details; a
 * busy or unreachable store or vendor is a 503 with Retry-After; anything else is a 500 that tells nothing
 * but the request id, logged with its cause.
 */
export const errorResponse = (route: RouteSpec, routeKey: string): RouteMiddleware => ({
  onError: async (request) => {
    const error = request.error;
    const requestId = request.event.requestContext?.requestId ?? 'unknown';
    if (error instanceof AppError && error.status < 500) {
      log('info', 'request', { requestId, route: routeKey, status: error.status, code: error.code });
      request.response = json(error.status, { error: { code: error.code, message: error.message, details: error.details } }, requestId);
      const rate = request.event.app?.rate;
      // A 429 names its own wait (Retry-After): the rate limiter's, or a widget key's session limit.
      const extra = error instanceof RateLimitedError || error instanceof TooManyWidgetSessionsError ? error.headers : rate ? rateLimitHeaders(rate) : {};
      request.response.headers = { ...request.response.headers, ...extra, ...(route.cors ? corsHeaders(request.event) : {}) };
      return;
    }
    if (error instanceof ServiceUnavailableError || isTransientServiceFailure(error)) {
      // Busy or unreachable for now, not a bug: the caller is told when to try again, and nothing was changed.
      const unavailable = error instanceof ServiceUnavailableError ? error : new ServiceUnavailableError();
      log('warn', 'request', { requestId, route: routeKey, status: 503, ...describeError(error) });
      request.response = json(503, { error: { code: unavailable.code, message: unavailable.message, details: unavailable.details } }, requestId);
      request.response.headers = { ...request.response.headers, 'retry-after': String(unavailable.retryAfterSeconds), ...(route.cors ? corsHeaders(request.event) : {}) };
      return;
    }
    log('error', 'unhandled error', { requestId, route: routeKey, ...describeError(error) });
    request.response = json(500, { error: { code: 'internal_error', message: 'Something went wrong on our side. Try again; if it persists, quote the request id.', details: [{ requestId }] } }, requestId);
  },
});
