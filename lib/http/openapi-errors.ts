import * as z from 'zod';
import { loadConfig } from '../config.js';
import { reservationFor } from '../domain/call.js';
import {
  AppError,
  ConflictError,
  ERROR_CODES,
  ForbiddenError,
  InsufficientCreditsError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
  type ErrorDetail,
} from '../domain/errors.js';
import type { RouteSpec } from '../infra/routes.js';
import { MAX_JSON_BODY_BYTES } from './json.js';

/** The error responses of the OpenAPI document (lib/http/openapi.ts): the body, each status's meaning and example, which a route lists. */

type Json = Record<string, unknown>;

/** The error body every failure carries (DESIGN.md); not in the global registry so no id can clash. */
export const ErrorBody = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES).describe('Stable snake_case code to branch on, e.g. validation_failed. New codes may be added.'),
    message: z.string().describe('A human sentence; may change between releases.'),
    details: z
      .union([
        z.array(
          z
            .object({
              field: z.string().optional().describe('Dotted path of the offending input, e.g. config.url or query.limit.'),
              message: z.string().optional(),
              keys: z.array(z.string()).optional().describe('The unknown field names, on an unrecognized-keys failure.'),
            })
            .catchall(z.unknown()),
        ),
        z.record(z.string(), z.unknown()),
      ])
      .describe('Usually a list of {field, message}; an object for some codes (insufficient_credits: {required, available}).'),
  }),
});

/** What one call reserves at the default pricing (docs/calls.md): the `required` of a realistic 402. */
const DEFAULT_CONFIG = loadConfig({});
const CALL_RESERVATION = reservationFor({
  creditsPerMinute: DEFAULT_CONFIG.CALL_CREDITS_PER_MINUTE,
  maxDurationSeconds: DEFAULT_CONFIG.CALL_MAX_DURATION_SECONDS,
});

/** The response headers we send (lib/http/middleware, lib/services/rate-limits.ts), as `components/headers`. */
export const HEADERS: Record<string, Json> = {
  RequestId: { description: 'The id of this request: quote it when asking about a failure (a 500\'s details carry it too).', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before retrying (RFC 9110).', schema: { type: 'integer', minimum: 0 } },
  RateLimit: { description: 'The quota left in the current window and the seconds until it resets, e.g. `"key";r=199;t=10` (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  RateLimitPolicy: { description: 'The quota and window of the policy that applied, e.g. `"key";q=200;w=10` (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
};
const header = (name: keyof typeof HEADERS & string) => ({ $ref: `#/components/headers/${name}` });
/** The headers of every JSON answer of a route that counts requests (its RateLimit fields). */
export const REQUEST_ID_HEADER: Json = { 'x-request-id': header('RequestId') };
export const RATE_LIMIT_HEADERS: Json = { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') };

/**
 * Why each error status happens; which ones a route lists is decided in {@link errorStatuses}. Examples
 * are built from the domain's own error classes, so they show the codes and messages clients really get.
 */
export const ERROR_STATUSES: Record<number, { name: string; description: string; example?: AppError }> = {
  400: {
    name: 'BadRequest',
    description: 'Validation failed (validation_failed), malformed JSON (invalid_json) or a __proto__ key (forbidden_key).',
    example: new ValidationError([{ field: 'body', message: 'Unrecognized key: "colour"', keys: ['colour'] }]),
  },
  401: { name: 'Unauthorized', description: 'The x-api-key header is missing, unknown or revoked (unauthorized).', example: new UnauthorizedError() },
  402: {
    name: 'PaymentRequired',
    description: `The workspace has insufficient credits (insufficient_credits): a call needs its longest possible duration in credits up front (${CALL_RESERVATION} at the default pricing; docs/calls.md).`,
    example: new InsufficientCreditsError(CALL_RESERVATION, 2.5),
  },
  403: {
    name: 'Forbidden',
    description: 'A workspaceId in the query or body is not the API key\'s workspace (forbidden); on /auth, a request not from the dashboard page (csrf_refused).',
    example: new ForbiddenError(),
  },
  404: {
    name: 'NotFound',
    description: 'No such record in this workspace (not_found); records of other workspaces are reported the same way.',
    example: new NotFoundError('Agent'),
  },
  409: {
    name: 'Conflict',
    description:
      'The change conflicts with existing data, e.g. a phone number already in use (phone_number_taken), or a phone call to a number on the ' +
      "workspace's do-not-call list (do_not_call: details name the number and the history record of the refusal; send consentedCall: true for a call the person agreed to).",
    example: new ConflictError('phone_number_taken', 'A contact with phone number +14155552671 already exists.', [
      { field: 'phoneNumber', message: 'already used by another contact in this workspace' },
    ]),
  },
  410: { name: 'Gone', description: 'The resource was used up, e.g. a meeting link already opened.' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not multipart/form-data (uploads) or application/json (/auth) (unsupported_media_type).',
    example: new AppError(415, 'unsupported_media_type', 'Send the upload as multipart/form-data with the fields file and workspaceId (and optionally defaultCountry).', [
      { field: 'content-type', message: 'expected multipart/form-data' },
    ]),
  },
  422: {
    name: 'UnprocessableContent',
    description:
      'Well-formed but not usable: an Idempotency-Key reused with another body (idempotency_key_reused), an agent that is not the workspace\'s ' +
      '(unknown_agent), telephony credentials the provider refused or a number not in that account (telephony_credentials_invalid, number_not_in_account).',
    example: new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.', [
      { field: 'Idempotency-Key', message: 'send a new key for a new request' },
    ]),
  },
  413: {
    name: 'PayloadTooLarge',
    description: `The body exceeds its limit (payload_too_large): ${MAX_JSON_BODY_BYTES} bytes for JSON.`,
    example: new PayloadTooLargeError(MAX_JSON_BODY_BYTES),
  },
  429: {
    name: 'TooManyRequests',
    description: 'Too many requests (rate_limited): this API key\'s quota, or the route\'s own limit (per source IP on public routes; webhook replays per endpoint and workspace, and their hourly delivery budget; docs/api.md, Rate limits); wait Retry-After seconds.',
    example: new AppError(429, 'rate_limited', 'Too many requests; retry after 12 seconds.'),
  },
  500: {
    name: 'InternalServerError',
    description: 'Our fault (internal_error): the message says nothing more; details carry the request id to quote.',
    example: new AppError(500, 'internal_error', 'Something went wrong on our side. Try again; if it persists, quote the request id.', [{ requestId: '0b4a5c62-3f1e-4d1a-9a57-1d2c3e4f5a6b' } as unknown as ErrorDetail]),
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'Our data store was busy or unreachable for the whole request (service_unavailable): nothing was changed; send the same request again after Retry-After seconds.',
    example: new ServiceUnavailableError(),
  },
};

/** The headers of each shared error response: every one names the request; 429 and 503 say when to retry. */
export const errorHeaders = (status: number): Json => ({
  ...REQUEST_ID_HEADER,
  ...(status === 429 || status === 503 ? { 'Retry-After': header('RetryAfter') } : {}),
  ...(status === 429 ? RATE_LIMIT_HEADERS : {}),
});

export const errorExample = (e: AppError) => ({ error: { code: e.code, message: e.message, details: e.details } });

/**
 * The error statuses a route can answer: those its middleware implies plus those it declares. Sorted so
 * the document is stable.
 */
export function errorStatuses(route: RouteSpec): number[] {
  // Anything can fail on our side: every route may answer the generic 500.
  const out = new Set<number>([...(route.errors ?? []), 500]);
  const readsBody = route.bodyKind !== 'none' && (route.body !== undefined || route.bodyKind === 'raw');
  if (route.body || route.query || route.params || route.form) out.add(400);
  if (route.auth) {
    out.add(401);
    // Any workspaceId in the query string is checked, declared or not, so every authenticated route can 403.
    out.add(403);
    // The rate limiter counts every authenticated request.
    out.add(429);
  }
  // The dashboard's /auth routes refuse other pages' requests (csrf_refused) and bodies that are not JSON.
  if (route.csrf) {
    out.add(403);
    out.add(415);
  }
  // Public routes with a per-IP limit (webhooks, meeting pages) answer 429 too.
  if (route.ipLimit) out.add(429);
  if (route.params) out.add(404);
  if (readsBody) out.add(413);
  // Every route that counts requests reads the table, and a busy table is a 503 (lib/http/unavailable.ts).
  if (route.auth || route.ipLimit) out.add(503);
  return [...out].sort((a, b) => a - b);
}

