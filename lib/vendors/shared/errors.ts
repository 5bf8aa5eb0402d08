import type { FailureKind } from '../../domain/call-end.js';

/** What a secret becomes in a vendor error's text. */
export const REDACTED = '[redacted]';

/**
 * What looks like a credential in a vendor's error text, in the order they are replaced. Vendors echo what
 * they were sent: OpenAI's 401 names the key's first 3 and last 4 characters (`sk-*********ZQXW`), others
 * the header or the URL. The prefixes are those of the vendors in lib/vendors: OpenAI `sk-` / `sk-proj-`,
 * Anthropic `sk-ant-`, ElevenLabs `sk_`, Cartesia `sk_car_`, Google `AIza`; Deepgram, AssemblyAI and
 * Speechmatics keys (and Twilio's auth tokens) are long runs of hex or letters and digits.
 */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  // An Authorization header's credentials (Deepgram's scheme is `Token`); short words ("Bearer auth") are prose.
  [/\b(Bearer|Token|Basic)(\s+)[A-Za-z0-9._~+/=*-]{12,}/gi, `$1$2${REDACTED}`],
  // A key sent in a header the vendor echoed: `x-api-key: ...`, `xi-api-key=...`, `x-goog-api-key: ...`.
  [/\b((?:x|xi|x-goog)-api-key["']?\s*[:=]\s*["']?)[^\s"',;]+/gi, `$1${REDACTED}`],
  // A key in a query string (Google's `?key=`).
  [/([?&](?:key|api_key|apikey|token|access_token|auth_token)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
  // Keys with a known prefix, raw or masked (`sk-proj-…`, `sk-ant-…`, `sk_…`, `sk_car_…`, `sk-***ZQXW`).
  [/\bsk[-_][A-Za-z0-9*_-]{3,}/g, REDACTED],
  [/\bAIza[A-Za-z0-9_-]{20,}/g, REDACTED],
  // Any other masked value: characters either side of a run of asterisks.
  [/[A-Za-z0-9_-]*\*{3,}[A-Za-z0-9_-]*/g, REDACTED],
  // Long opaque tokens (40-hex Deepgram keys, 32-hex AssemblyAI keys and Twilio tokens, Speechmatics keys).
  [/\b[A-Za-z0-9]{32,}\b/g, REDACTED],
];

/**
 * A vendor's error text with everything key-shaped replaced by `[redacted]`: the one scrubbing every vendor
 * error gets ({@link VendorError}), so no key reaches a history record, a webhook or the log.
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Scrubs the messages and stacks of an error's causes in place (an SDK error keeps the vendor's text, and
 * `describeError` logs the cause chain). The objects stay what they were, so checks on their type or code
 * (a network error's cause) still work.
 */
function redactCauses(cause: unknown, scrub: (text: string) => string = redactSecrets): void {
  const seen = new Set<unknown>();
  for (let e = cause, depth = 0; e instanceof Error && !seen.has(e) && depth < 8; e = e.cause, depth += 1) {
    seen.add(e);
    try {
      e.message = scrub(e.message);
      if (typeof e.stack === 'string') e.stack = scrub(e.stack);
    } catch {
      // A frozen error cannot be scrubbed; it is still only reached through ours.
    }
  }
}

/**
 * Scrubs one known secret (a customer's own key, of any shape) from an error and its causes, in place: for
 * a server that echoes the key it was sent, which {@link redactSecrets} may not recognise as key-shaped.
 */
export function redactValue<E extends Error>(error: E, secret: string | undefined): E {
  if (!secret) return error;
  redactCauses(error, (text) => text.split(secret).join(REDACTED));
  return error;
}

/**
 * The error every vendor adapter throws: which vendor, whether trying again could help, and the status the
 * vendor answered when there was one. The shared base retries only retryable errors (STYLE 8). Its message
 * and its causes are scrubbed of anything key-shaped ({@link redactSecrets}) as it is built: this is the
 * boundary every vendor failure crosses before it is stored, sent or logged.
 */
export class VendorError extends Error {
  constructor(
    readonly vendor: string,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown; retryAfterMs?: number; code?: string },
  ) {
    redactCauses(options?.cause);
    super(redactSecrets(`${vendor}: ${message}`), options);
    this.name = 'VendorError';
    this.retryAfterMs = options?.retryAfterMs;
    this.code = options?.code;
  }

  /** The vendor's own error code when it sent one (`voice_not_found`, `invalid_api_key`, `INVALID_AUTH`). */
  readonly code: string | undefined;

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

/**
 * The vendor's error code in an error body it answered, whichever of the vendors' shapes it has: ElevenLabs
 * `{detail: {status}}`, OpenAI and Google `{error: {code | status}}`, Anthropic `{error: {type}}`, Deepgram
 * `{err_code}`, Cartesia `{title}` or `{error}` (a string). Undefined when the text is not such a body.
 */
export function codeFromBody(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const nested = (o: unknown, ...names: string[]) => {
    if (typeof o !== 'object' || o === null) return undefined;
    for (const n of names) {
      const v = (o as Record<string, unknown>)[n];
      if (typeof v === 'string' && v) return v;
    }
    return undefined;
  };
  const code = nested(b.detail, 'status', 'code') ?? nested(b.error, 'code', 'status', 'type') ?? nested(b, 'err_code', 'error_code', 'code', 'title', 'error');
  // A code is a short identifier; anything else is prose.
  return code && /^[A-Za-z0-9_.-]{1,60}$/.test(code) ? code : undefined;
}

/** The vendor's code behind an error: its own, the SDK error's it wraps, or one in the body it quoted. */
export function vendorCodeOf(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let e = error, depth = 0; e instanceof Error && !seen.has(e) && depth < 8; e = e.cause, depth += 1) {
    seen.add(e);
    if (e instanceof VendorError && e.code) return e.code;
    const own = (e as { code?: unknown }).code;
    if (typeof own === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{1,59}$/.test(own) && !/^(ERR_|UND_ERR)/.test(own) && !/^E[A-Z]+$/.test(own)) return own;
    const inner = (e as { error?: { error?: { type?: unknown }; type?: unknown } }).error;
    const type = inner?.error?.type ?? inner?.type;
    if (typeof type === 'string' && type) return type;
    const quoted = codeFromBody(e.message);
    if (quoted) return quoted;
  }
  return undefined;
}

/**
 * How a vendor failed: its key was refused (401, 403, or a code saying so), it throttled us (429), what we
 * named does not exist there (404, or a `…not_found` code: an unknown voice or model), or anything else
 * (timeouts, 5xx, sockets that dropped), which is the vendor being unavailable.
 */
export function failureKind(error: unknown): FailureKind {
  const status = error instanceof VendorError ? error.status : undefined;
  const code = (vendorCodeOf(error) ?? '').toLowerCase();
  const message = error instanceof Error ? error.message.toLowerCase() : '';
  // Google answers a bad key with 400 INVALID_ARGUMENT "API key not valid".
  if (status === 401 || status === 403 || /auth|api_key|unauthori[sz]ed|permission|forbidden/.test(code) || /api key not valid|(invalid|incorrect) api key/.test(message)) return 'auth';
  if (status === 429 || /rate_limit|too_many|quota/.test(code)) return 'rate_limited';
  if (status === 404 || /not_found/.test(code) || /\b(voice|model)\b[^.]*\bnot found\b|does not exist/.test(message)) return 'not_found';
  return 'unavailable';
}

/** The human sentence in a vendor's error body (`detail.message`, `error.message`, `err_msg`, `message`). */
function sentenceFromBody(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const b = JSON.parse(text.slice(start)) as Record<string, unknown>;
    const pick = (o: unknown, n: string) => (typeof o === 'object' && o !== null && typeof (o as Record<string, unknown>)[n] === 'string' ? ((o as Record<string, unknown>)[n] as string) : undefined);
    return pick(b.detail, 'message') ?? pick(b.error, 'message') ?? pick(b, 'err_msg') ?? pick(b, 'message') ?? (typeof b.error === 'string' ? b.error : undefined);
  } catch {
    return undefined;
  }
}

/** A vendor failure as a user may see it: which vendor, its code, a short message, and its kind. */
export interface VendorFailure {
  readonly vendor: string;
  readonly code: string | null;
  readonly message: string;
  readonly kind: FailureKind;
}

/**
 * Describes a failure for a history record, a webhook and the dashboard. The message is the vendor's own
 * sentence when its body had one, else the error's text; either way scrubbed of anything key-shaped (the
 * VendorError's own scrubbing, again here for errors that are not one) and of each of `secrets` (the keys
 * the call used, whatever their shape: {@link redactValue}).
 */
export function describeVendorFailure(error: unknown, secrets: readonly (string | undefined)[] = [], fallbackVendor = 'platform'): VendorFailure {
  const vendor = error instanceof VendorError ? error.vendor : fallbackVendor;
  const raw = error instanceof Error ? error : new Error(String(error));
  const sentence = sentenceFromBody(raw.message);
  const status = error instanceof VendorError ? error.status : undefined;
  const text = sentence ? `${vendor}${status ? ` answered HTTP ${status}` : ''}: ${sentence}` : raw.message;
  const scrubbed = new Error(redactSecrets(text));
  for (const secret of secrets) redactValue(scrubbed, secret);
  return { vendor, code: vendorCodeOf(error) ?? null, message: scrubbed.message, kind: failureKind(error) };
}
