import { arch, platform } from 'node:os';
import * as DomainModule from 'twilio/lib/base/Domain.js';
import * as VersionModule from 'twilio/lib/base/Version.js';
import twilioPackage from 'twilio/package.json' with { type: 'json' };
import type * as V2010Module from 'twilio/lib/rest/api/V2010.js';
import * as RestExceptionModule from 'twilio/lib/base/RestException.js';
import { withRetry } from './base.js';
import { TelephonyError, unavailableTelephonyPort, type TelephonyAccount, type TelephonyPort } from './port.js';

/**
 * A Twilio REST client made of the SDK's own parts, for the one API domain the platform uses (Api v2010).
 *
 * Why not `twilio(sid, token)`: the SDK's `Twilio` class reaches each of its ~40 API domains through a lazy
 * `require` getter, which a bundler follows anyway, and its default HTTP client brings axios, mime-db and
 * jsonwebtoken: 4.2 MB in every Lambda that telephones (docs/benchmarks.md, "Cold start"). Here the SDK's
 * `Domain` and `Version` (request building, error mapping into `RestException`, paging) and its generated
 * resources (`CallListInstance`, ...: parameter names, serialization, response shapes) are used as they are;
 * only the transport is ours: the SDK's documented `httpClient` contract, answered with Node's `fetch`.
 *
 * Each resource is imported by the one part of the adapter that uses it (twilio-search.ts, twilio-numbers.ts,
 * twilio-calls.ts): an entry point names the parts it needs (see {@link twilioAdapter}), so its bundle carries
 * only those resources; twilio.ts joins all three for the processes that need everything.
 */

/** Where the SDK sends requests unless told otherwise. */
export const TWILIO_API_ORIGIN = 'https://api.twilio.com';

/**
 * A class the SDK exports as CommonJS `exports.default`: Node's ESM loader (and esbuild, which follows it for
 * this package) hands over the whole `exports` object as the default, vitest's loader unwraps it.
 */
export const sdkDefault = <M extends { default: unknown }>(imported: M): M['default'] =>
  (imported as { default?: M['default'] }).default ?? (imported as unknown as M['default']);

/** The Api v2010 version object the SDK's generated resources are built on. */
export type TwilioApi = V2010Module.default;

export interface TwilioClientOptions {
  /** Twilio's REST origin, or a stand-in's (`http://127.0.0.1:port`); every api.twilio.com URI goes there. */
  readonly baseUrl: string;
  /** Per-request timeout. */
  readonly timeoutMs: number;
}

/** What the SDK's `Domain` and `Page` hand to their client (BaseTwilio's `Client.request` options). */
interface SdkRequest {
  readonly method: string;
  readonly uri: string;
  readonly headers?: Record<string, string>;
  readonly params?: Record<string, unknown>;
  readonly data?: Record<string, unknown>;
}

/** What the SDK expects back: status, body (text; `Version` and `Page` parse JSON) and headers. */
interface SdkResponse {
  readonly statusCode: number;
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** Named in the User-Agent as the SDK's own client names it, so Twilio's logs show which SDK called. */
const SDK_VERSION = twilioPackage.version;

/**
 * Form and query encoding as the SDK's own client does it (qs with `arrayFormat: 'repeat'`): arrays repeat
 * the key, undefined is left out, null is sent empty.
 */
export function encodeTwilioParams(values: Record<string, unknown> | undefined): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) out.append(key, item === null ? '' : String(item));
  }
  return out;
}

/**
 * The client half of the SDK contract: auth and headers as BaseTwilio sets them, the request sent with
 * `fetch`. Failures to reach Twilio at all become network {@link TelephonyError}s here; HTTP errors are
 * returned to the SDK, which raises its `RestException`.
 */
function fetchClient(account: TelephonyAccount, options: TwilioClientOptions) {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
  return {
    accountSid: account.accountSid,
    async request(opts: SdkRequest): Promise<SdkResponse> {
      // The SDK builds absolute api.twilio.com URIs, next-page links included: send them to the configured origin.
      const uri = opts.uri.startsWith(TWILIO_API_ORIGIN) ? origin + opts.uri.slice(TWILIO_API_ORIGIN.length) : opts.uri;
      const url = new URL(uri);
      for (const [key, value] of encodeTwilioParams(opts.params)) url.searchParams.append(key, value);
      const method = opts.method.toUpperCase();
      const hasBody = method === 'POST' || method === 'PUT';
      const headers: Record<string, string> = {
        ...opts.headers,
        'User-Agent': `twilio-node/${SDK_VERSION} (${platform()} ${arch()}) node/${process.version}`,
        'Accept-Charset': 'utf-8',
        Authorization: authorization,
        ...(hasBody && !opts.headers?.['Content-Type'] ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        ...(method !== 'DELETE' ? { Accept: 'application/json' } : {}),
      };
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          ...(hasBody ? { body: encodeTwilioParams(opts.data).toString() } : {}),
          redirect: 'manual',
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
        throw new TelephonyError(`Could not reach Twilio: ${reason}`, { vendor: 'twilio', kind: 'network', cause: error });
      }
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        responseHeaders[key] = value;
      });
      return { statusCode: response.status, body: await response.text(), headers: responseHeaders };
    },
  };
}

/**
 * The Api v2010 version object for one account, on which the SDK's generated resources are built
 * (`CallListInstance(api, sid)` and the like). Cheap: no I/O, no sockets of its own (fetch pools them).
 */
export function twilioApi(account: TelephonyAccount, options: TwilioClientOptions): TwilioApi {
  const domain = new (sdkDefault(DomainModule.default))(fetchClient(account, options) as never, TWILIO_API_ORIGIN);
  return new (sdkDefault(VersionModule.default))(domain, '2010-04-01') as TwilioApi;
}

export interface TwilioAdapterOptions {
  /** Twilio's REST origin, or a stand-in's (`http://127.0.0.1:port`). */
  readonly baseUrl?: string;
  /**
   * Per-request timeout. Twilio answers REST calls in well under a second; 10 s leaves room for a slow
   * purchase while keeping a stuck socket from eating the API Gateway's 29 s budget.
   */
  readonly timeoutMs?: number;
}

const DEFAULTS = { baseUrl: TWILIO_API_ORIGIN, timeoutMs: 10_000 } as const satisfies TwilioAdapterOptions;

const RATE_LIMITED = 20429;
const NOT_FOUND = 20404;
const AUTHENTICATE = 20003;
/** 21422: that number is not available; 21452: no numbers left in that area code. */
const UNAVAILABLE = new Set([21422, 21452]);

/** Translates whatever the SDK threw into a {@link TelephonyError}. */
export function toTelephonyError(error: unknown): TelephonyError | unknown {
  if (error instanceof TelephonyError) return error;
  if (error instanceof sdkDefault(RestExceptionModule.default)) {
    const status = error.status;
    const code = error.code;
    const init = { vendor: 'twilio', status, vendorCode: code, cause: error };
    const message = error.message || `Twilio answered HTTP ${status}`;
    if (status === 401 || code === AUTHENTICATE) return new TelephonyError(message, { ...init, kind: 'auth' });
    if (status === 404 || code === NOT_FOUND) return new TelephonyError(message, { ...init, kind: 'not_found' });
    if (status === 429 || code === RATE_LIMITED) return new TelephonyError(message, { ...init, kind: 'rate_limited' });
    if (code !== undefined && UNAVAILABLE.has(code)) return new TelephonyError(message, { ...init, kind: 'unavailable' });
    if (status >= 500) return new TelephonyError(message, { ...init, kind: 'provider_error' });
    return new TelephonyError(message, { ...init, kind: 'invalid' });
  }
  return error;
}

/** Only a 429 proves Twilio did not act; a timeout on a purchase may still have bought the number. */
const onlyIfNotActedOn = (e: unknown) => e instanceof TelephonyError && e.kind === 'rate_limited';

/** What a part of the adapter works with: the Api v2010 object of an account, and the retrying runner. */
export interface TwilioPartContext {
  api(account: TelephonyAccount): TwilioApi;
  /** Runs one SDK call with the port's retries; `idempotent: false` retries only what Twilio refused unacted. */
  run<T>(fn: () => Promise<T>, idempotent: boolean): Promise<T>;
}

/** One part of the Twilio adapter: the port operations built on one SDK resource. */
export type TwilioPart = (context: TwilioPartContext) => Partial<TelephonyPort>;

/**
 * The Twilio adapter made of the given parts; operations of the parts not named refuse, as the port of an
 * entry point without an adapter does. An entry point passes the result to `defineRoute`/`withTelephony`.
 */
export function twilioAdapter(...parts: readonly TwilioPart[]): (options?: TwilioAdapterOptions) => TelephonyPort {
  return (options = {}) => {
    const { baseUrl, timeoutMs } = { ...DEFAULTS, ...options };
    const context: TwilioPartContext = {
      api: (account) => twilioApi(account, { baseUrl: baseUrl ?? DEFAULTS.baseUrl, timeoutMs: timeoutMs ?? DEFAULTS.timeoutMs }),
      run: (fn, idempotent) =>
        withRetry(
          async () => {
            try {
              return await fn();
            } catch (error) {
              throw toTelephonyError(error);
            }
          },
          idempotent ? {} : { canRetry: onlyIfNotActedOn },
        ),
    };
    return Object.assign(unavailableTelephonyPort(), ...parts.map((part) => part(context))) as TelephonyPort;
  };
}

/** Twilio sends an unset setting as null or as an empty string. */
export const emptyToNull = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' ? null : v);

