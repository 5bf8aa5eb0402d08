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
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    redactCauses(options?.cause);
    super(redactSecrets(`${vendor}: ${message}`), options);
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
