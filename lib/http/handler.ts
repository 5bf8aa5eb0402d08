import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { getDeps, withTelephony, type Deps, type TelephonyAdapter } from '../deps.js';
import { AppError, ForbiddenError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '../domain/errors.js';
import type { RouteSpec } from '../infra/routes.js';
import type { KeyUser } from '../store/workspaces.js';
import { ownerRequired, TooManyWidgetSessionsError, userSessionRequired, widgetKeyRefused } from '../domain/access.js';
import type { RateDecision, RatePolicy } from '../domain/rate-window.js';
import { parseJsonBody } from './json.js';
import { isTransientServiceFailure } from '../store/transient.js';
import { withRequestDeadline } from '../store/dynamo.js';
import { describeError, log, setLogLevel } from '../observability/log.js';
import { keyVerdict, noteKeyUse, presentedKeyHash, type ApiKeyContext } from './key-verdict.js';
import { COUNTS_REFUSALS_ONLY, RateLimitedError, UnknownKeyCache, rateExhausted, rateLimitHeaders, ratePolicies, takeRate } from '../services/rate-limits.js';
import { sourceIp } from './source-ip.js';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a route's handler receives: validated input, the caller's workspace and the dependencies. */
export interface RouteInput<R extends RouteSpec> {
  readonly body: R['body'] extends z.ZodType ? Infer<R['body']> : undefined;
  readonly query: Infer<R['query']>;
  readonly params: Infer<R['params']>;
  /** The workspace the API key belongs to (the only one it may touch). */
  readonly workspaceId: string;
  /** Who presented the key: its id and, for a dashboard session key, the user and their role. */
  readonly caller: Caller;
  readonly deps: Deps;
  readonly event: APIGatewayProxyEventV2;
}

/** A non-JSON answer (HTML, assets, TwiML); returned as is. */
export interface RawResponse {
  readonly raw: true;
  readonly status?: number;
  readonly contentType: string;
  readonly body: string | Buffer;
  readonly headers?: Record<string, string>;
}

export const isRaw = (v: unknown): v is RawResponse =>
  typeof v === 'object' && v !== null && (v as { raw?: unknown }).raw === true;

/** The presented key as a route sees it (docs/dashboard.md: session keys carry a user). */
export interface Caller {
  readonly keyId: string;
  readonly user?: KeyUser;
}

interface AppState {
  deps?: Deps;
  workspaceId?: string;
  caller?: Caller;
  /** Resolves when the key is confirmed current (see authenticate). */
  verified?: Promise<void>;
  input?: { body: unknown; query: unknown; params: unknown };
  /** The rate-limit decision of this request, reported in the RateLimit headers of the answer. */
  rate?: RateDecision;
  started: number;
}

type Event = APIGatewayProxyEventV2 & { app?: AppState };

/** What the cache keeps of a key: its workspace and caller, which never change for a key value. */
interface KnownKey {
  readonly workspaceId: string;
  readonly caller: Caller;
}

/**
 * Maps key hashes to their workspace and caller. The mapping never changes, so caching it is safe;
 * revocation and expiry are still checked on every request (see authenticate). Bounded so a flood of keys
 * cannot grow it.
 */
const keyWorkspace = new Map<string, KnownKey>();

const KEY_CACHE_SIZE = 1_000;
/** Key hashes known not to work, for UNKNOWN_KEY_CACHE_TTL_MS (lib/services/rate-limits.ts). */
const unknownKeys = new UnknownKeyCache();
/** Key hashes confirmed current, for KEY_VERDICT_CACHE_TTL_MS (0 by default: always re-checked); same bounded TTL map. */
const verifiedKeys = new UnknownKeyCache();

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  return event.headers?.[name] ?? event.headers?.[name.toLowerCase()];
}

function issuesToDetails(error: z.ZodError, where: string) {
  return error.issues.map((i) => {
    const path = i.path.join('.');
    const field = path ? (where === 'body' ? path : `${where}.${path}`) : where;
    const unknown = i.code === 'unrecognized_keys' ? { keys: i.keys } : {};
    return { field, message: i.message, ...unknown };
  });
}

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const out = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!out.success) {
    if (where === 'body' && value === undefined) {
      throw new ValidationError([{ field: 'body', message: 'a JSON body is required' }]);
    }
    throw new ValidationError(issuesToDetails(out.error, where));
  }
  return out.data;
}

/** The caller a key context names: a session key carries its user and role. */
function callerOfContext(context: ApiKeyContext): Caller {
  return { keyId: context.keyId, ...(context.userId ? { user: { userId: context.userId, role: context.role as KeyUser['role'] } } : {}) };
}

/** The workspace and caller API Gateway's authorizer vouched for (functions/auth/authorizer.ts), if it ran. */
function authorizerContext(event: APIGatewayProxyEventV2): ApiKeyContext | undefined {
  const context = (event.requestContext as { authorizer?: { lambda?: Partial<ApiKeyContext> } }).authorizer?.lambda;
  return typeof context?.workspaceId === 'string' && typeof context.keyHash === 'string' && typeof context.keyId === 'string'
    ? (context as ApiKeyContext)
    : undefined;
}

/**
 * Resolves the workspace of the presented key and counts the request against the key's rate limit.
 *
 * - Behind API Gateway the Lambda authorizer already checked the key (its verdict cached per key for
 *   API_KEY_AUTHORIZER_TTL, lib/infra/constructs/edge.ts): its context names the workspace; only the count runs.
 * - A hash known not to work (unknown or revoked, cached for UNKNOWN_KEY_CACHE_TTL_MS) is 401 with no read.
 * - A key this instance has not seen yet is looked up first; if this source IP already used up its failed
 *   authentications, 429 before the read. A failed lookup counts against the IP.
 * - A key this instance confirmed less than KEY_VERDICT_CACHE_TTL_MS ago is not read again (0 by default:
 *   every request re-checks revocation).
 * - Otherwise, on a cache hit the revocation check and the rate count run together: read-only (GET) routes
 *   start their reads at once and the answer waits for both; any other method waits for both before touching
 *   anything, so a limited or revoked request changes nothing.
 */
async function authenticate(event: Event, state: AppState, deps: Deps): Promise<void> {
  const policies = ratePolicies(deps.config);
  const vouched = authorizerContext(event);
  if (vouched) {
    state.workspaceId = vouched.workspaceId;
    state.caller = callerOfContext(vouched);
    return startChecks(event, state, admit(state, deps, policies.key, vouched.keyHash));
  }
  const presented = header(event, 'x-api-key');
  const hash = presentedKeyHash(presented);
  if (!hash) throw new UnauthorizedError();
  const known = unknownKeys.get(hash);
  if (known) throw new UnauthorizedError(known.revoked ? REVOKED : undefined);
  const cached = keyWorkspace.get(hash);
  if (!cached) {
    const blocked = rateExhausted(deps.db, policies['auth-failures'], sourceIp(event));
    if (blocked) throw new RateLimitedError(blocked);
    // Counted only once the key is known good: unknown keys must not cost a counter write each.
    const checked = await checkKey(event, deps, presented, hash);
    state.workspaceId = checked.workspaceId;
    state.caller = checked.caller;
    await admit(state, deps, policies.key, hash);
    state.verified = Promise.resolve();
    return;
  }
  state.workspaceId = cached.workspaceId;
  state.caller = cached.caller;
  if (verifiedKeys.get(hash)) return startChecks(event, state, admit(state, deps, policies.key, hash));
  // Both run; a revoked key answers 401 even when it is also over its limit.
  const both = Promise.allSettled([checkKey(event, deps, presented, hash), admit(state, deps, policies.key, hash)]).then(([c, a]) => {
    if (c.status === 'rejected') throw c.reason;
    if (a.status === 'rejected') throw a.reason;
  });
  return startChecks(event, state, both);
}

/** Counts the request against the key's limit; 429 when it is used up. */
async function admit(state: AppState, deps: Deps, policy: RatePolicy, hash: string): Promise<void> {
  state.rate = await takeRate(deps.db, policy, hash);
  if (!state.rate.allowed) throw new RateLimitedError(state.rate);
}

/**
 * Reads the key's item: a good key is remembered (workspace, caller, verdict) and its use noted; any other
 * is forgotten, cached as not working and counted against the source IP's failed authentications.
 */
async function checkKey(event: Event, deps: Deps, presented: string | undefined, hash: string): Promise<KnownKey> {
  const verdict = await keyVerdict(deps.db, presented);
  if (verdict.kind === 'ok') {
    const known: KnownKey = { workspaceId: verdict.workspaceId, caller: callerOfContext(verdict.context) };
    if (keyWorkspace.size >= KEY_CACHE_SIZE) keyWorkspace.clear();
    keyWorkspace.set(hash, known);
    verifiedKeys.add(hash, false, deps.config.KEY_VERDICT_CACHE_TTL_MS);
    await noteKeyUse(deps.db, hash, verdict.record);
    return known;
  }
  keyWorkspace.delete(hash);
  // A widget key sits in public page source: it starts widget sessions and nothing else. Never cached,
  // so every use re-reads it (and a widget key cannot slip past through the cache).
  if (verdict.kind === 'widget') throw widgetKeyRefused();
  unknownKeys.add(hash, verdict.kind === 'revoked', deps.config.UNKNOWN_KEY_CACHE_TTL_MS);
  await takeRate(deps.db, ratePolicies(deps.config)['auth-failures'], sourceIp(event));
  throw new UnauthorizedError(verdict.kind === 'revoked' ? REVOKED : undefined);
}

/**
 * Read-only (GET) routes start their reads while `checks` run and the answer waits for both; any other
 * method waits for the checks before touching anything.
 */
async function startChecks(event: Event, state: AppState, checks: Promise<unknown>): Promise<void> {
  if (event.requestContext.http.method === 'GET') {
    state.verified = checks.then(nothing);
    state.verified.catch(nothing);
    return;
  }
  await checks;
  state.verified = Promise.resolve();
}

const nothing = (): undefined => undefined;

const REVOKED = 'This API key has been revoked.';

/** A route for dashboard users only refuses API keys, and an owner-only route refuses members (docs/dashboard.md). */
function assertAccess(route: RouteSpec, caller: Caller): void {
  if (!route.access) return;
  if (!caller.user) throw userSessionRequired();
  if (route.access === 'owner' && caller.user.role !== 'owner') throw ownerRequired();
}

/**
 * A cross-site route's CORS answer: the request's own Origin (the handler refuses origins its key does not
 * list, and a refusal must be readable for the widget to say why), never `*`, and no credentials.
 */
function corsHeaders(event: APIGatewayProxyEventV2): Record<string, string> {
  const origin = header(event, 'origin');
  return origin ? { 'access-control-allow-origin': origin, vary: 'origin' } : { vary: 'origin' };
}

function assertOwnWorkspace(claimed: unknown, own: string): void {
  if (typeof claimed === 'string' && claimed !== own) throw new ForbiddenError();
}

const json = (status: number, payload: unknown, requestId: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
  body: JSON.stringify(payload),
});

/** What a route module adds to the shared dependencies. */
export interface RouteOptions {
  /** The telephony adapter, for routes that reach the provider (its SDK is bundled only where named). */
  readonly telephony?: TelephonyAdapter;
  /**
   * The CSRF rule of a `csrf` route (lib/http/session-cookie.ts, DASHBOARD_REQUEST), run before anything
   * else. Handed in by the route rather than imported here, so only the /auth function bundles it.
   */
  readonly dashboardRequest?: (event: APIGatewayProxyEventV2, config: Deps['config']) => void;
}

/**
 * The one middleware stack every HTTP route uses: body parsing, authentication, tenancy, validation,
 * response projection and the error handler. A handler module is `defineRoute(ROUTES.x, fn)`.
 */
export function defineRoute<const R extends RouteSpec>(
  route: R,
  fn: (input: RouteInput<R>) => Promise<unknown>,
  options: RouteOptions = {},
) {
  const routeKey = `${route.method} ${route.path}`;
  // A route the table marks `csrf` cannot be defined without its rule (every /auth handler passes it).
  if (route.csrf && !options.dashboardRequest) throw new Error(`${routeKey} is a csrf route: pass its dashboardRequest rule`);
  /** A per-IP limit that counts only this route's refusals (webhooks), not every request. */
  const countsRefusals = route.ipLimit !== undefined && COUNTS_REFUSALS_ONLY.has(route.ipLimit);
  // Built once per process-wide deps (a local platform started again in the same process has new ones).
  let routeDeps: { readonly of: Deps; readonly deps: Deps } | undefined;
  const depsFor = (deps: Deps): Deps => {
    if (!options.telephony) return deps;
    if (routeDeps?.of !== deps) routeDeps = { of: deps, deps: withTelephony(deps, options.telephony) };
    return routeDeps.deps;
  };
  const base = async (event: Event): Promise<APIGatewayProxyStructuredResultV2> => {
    const state = event.app!;
    const input = state.input!;
    const work = fn({
      body: input.body,
      query: input.query,
      params: input.params,
      workspaceId: state.workspaceId ?? '',
      caller: state.caller ?? { keyId: '' },
      deps: state.deps!,
      event,
    } as RouteInput<R>);
    const [verified, result] = await Promise.allSettled([state.verified ?? Promise.resolve(), work]);
    if (verified.status === 'rejected') throw verified.reason;
    if (result.status === 'rejected') throw result.reason;
    const value = result.value;
    if (isRaw(value)) {
      const binary = Buffer.isBuffer(value.body);
      return {
        statusCode: value.status ?? route.status,
        headers: { 'content-type': value.contentType, ...value.headers },
        body: binary ? (value.body as Buffer).toString('base64') : (value.body as string),
        isBase64Encoded: binary,
      };
    }
    if (route.status === 204) return { statusCode: 204, headers: { 'x-request-id': event.requestContext.requestId } };
    const payload = route.response ? route.response.parse(value) : value;
    return json(route.status, payload, event.requestContext.requestId);
  };

  const handler = middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>(base).use({
    before: async (request) => {
      const event = request.event;
      const state: AppState = { started: Date.now() };
      event.app = state;
      const deps = depsFor(await getDeps());
      setLogLevel(deps.config.LOG_LEVEL);
      state.deps = deps;
      // The dashboard's /auth routes refuse any other page's request before it costs a count or a read.
      if (route.csrf) options.dashboardRequest!(event, deps.config);
      // Public routes are counted per source IP before any other work. Webhooks count only what they
      // refuse (onError): an address that used its window is refused here, before the signature check.
      if (route.ipLimit) {
        const policy = ratePolicies(deps.config)[route.ipLimit];
        if (countsRefusals) {
          const blocked = rateExhausted(deps.db, policy, sourceIp(event));
          if (blocked) throw new RateLimitedError(blocked);
        } else {
          state.rate = await takeRate(deps.db, policy, sourceIp(event));
          if (!state.rate.allowed) throw new RateLimitedError(state.rate);
        }
      }
      if (route.auth) {
        await authenticate(event, state, deps);
        assertAccess(route, state.caller!);
      }
      const body = route.bodyKind === 'raw' || route.bodyKind === 'none'
        ? undefined
        : parseJsonBody(event.body, event.isBase64Encoded);
      if (route.auth) {
        assertOwnWorkspace(event.queryStringParameters?.workspaceId, state.workspaceId!);
        if (body && typeof body === 'object') {
          assertOwnWorkspace((body as Record<string, unknown>).workspaceId, state.workspaceId!);
        }
      }
      state.input = {
        body: parsePart(route.body, body, 'body'),
        query: parsePart(route.query, event.queryStringParameters, 'query'),
        params: parsePart(route.params, event.pathParameters, 'path'),
      };
    },
    after: async (request) => {
      const state = request.event.app;
      const response = request.response;
      if (response && (route.cors || state?.rate)) {
        // `base` built this headers object for this response alone: added to in place, not copied per field group.
        response.headers = Object.assign(response.headers ?? {}, route.cors ? corsHeaders(request.event) : undefined, state?.rate ? rateLimitHeaders(state.rate) : undefined);
      }
      log('info', 'request', {
        requestId: request.event.requestContext.requestId,
        route: routeKey,
        status: request.response?.statusCode,
        ms: state ? Date.now() - state.started : undefined,
      });
    },
    onError: async (request) => {
      const error = request.error;
      const requestId = request.event.requestContext?.requestId ?? 'unknown';
      if (error instanceof AppError && error.status < 500) {
        log('info', 'request', { requestId, route: routeKey, status: error.status, code: error.code });
        const app = request.event.app;
        if (countsRefusals && app?.deps && !(error instanceof RateLimitedError)) {
          app.rate = await takeRate(app.deps.db, ratePolicies(app.deps.config)[route.ipLimit!], sourceIp(request.event));
        }
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
  // The store's retries within the request (transact) end before the function is cut off.
  return (event: Event, context: Context): Promise<APIGatewayProxyStructuredResultV2> =>
    typeof context?.getRemainingTimeInMillis === 'function'
      ? withRequestDeadline(Date.now() + context.getRemainingTimeInMillis(), () => handler(event, context))
      : handler(event, context);
}
