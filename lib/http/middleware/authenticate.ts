import type { Deps } from '../../deps.js';
import { UnauthorizedError } from '../../domain/errors.js';
import { widgetKeyRefused } from '../../domain/access.js';
import type { RatePolicy } from '../../domain/rate-window.js';
import type { RouteSpec } from '../../infra/routes.js';
import type { KeyUser } from '../../store/workspaces.js';
import { RateLimitedError, rateExhausted, ratePolicies, takeRate } from '../../services/rate-limits.js';
import { UnknownKeyCache } from '../key-cache.js';
import { keyVerdict, noteKeyUse, presentedKeyHash, type ApiKeyContext } from '../../services/api-keys.js';
import { sourceIp } from '../source-ip.js';
import { header, stateOf, type AppState, type Caller, type Event, type RouteMiddleware } from './state.js';

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
/** Key hashes known not to work, for UNKNOWN_KEY_CACHE_TTL_MS (lib/http/key-cache.ts). */
const unknownKeys = new UnknownKeyCache();
/** Key hashes confirmed current, for KEY_VERDICT_CACHE_TTL_MS (0 by default: always re-checked); same bounded TTL map. */
const verifiedKeys = new UnknownKeyCache();

/** The caller a key context names: a session key carries its user and role. */
function callerOfContext(context: ApiKeyContext): Caller {
  return { keyId: context.keyId, ...(context.userId ? { user: { userId: context.userId, role: context.role as KeyUser['role'] } } : {}) };
}

/** The workspace and caller API Gateway's authorizer vouched for (functions/auth/authorizer.ts), if it ran. */
function authorizerContext(event: Event): ApiKeyContext | undefined {
  const context = (event.requestContext as { authorizer?: { lambda?: Partial<ApiKeyContext> } }).authorizer?.lambda;
  return typeof context?.workspaceId === 'string' && typeof context.keyHash === 'string' && typeof context.keyId === 'string'
    ? (context as ApiKeyContext)
    : undefined;
}

/** A keyed route resolves the presented key's workspace and counts the request against its rate limit. */
export const authenticate = (route: RouteSpec): RouteMiddleware => ({
  before: async (request) => {
    if (!route.auth) return;
    const state = stateOf(request.event);
    await authenticateKey(request.event, state, state.deps!);
  },
});

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
async function authenticateKey(event: Event, state: AppState, deps: Deps): Promise<void> {
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
