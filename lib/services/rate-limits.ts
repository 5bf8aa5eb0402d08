import type { Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import { LocalWindows, windowAt, type RateDecision, type RatePolicy } from '../domain/rate-window.js';
import type { Db } from '../store/dynamo.js';
import { countInWindow, reserveInWindows } from '../store/rate-limits.js';
import { describeError, log } from '../observability/log.js';

/**
 * The API's rate limiter (docs/api.md, "Rate limits"): fixed windows whose count lives in the table, so the
 * limit holds across every Lambda instance and every route's function. Each instance reserves units of the
 * count in batches that grow with its own traffic (one conditional UpdateItem per batch,
 * lib/store/rate-limits.ts; LocalWindows.admit says how many) and admits from them without a table call.
 * Once it knows a window is full (the table refused) it refuses from memory, so a flood costs at most one
 * write per instance per window after the limit. Same code locally and on AWS.
 */

/** The quotas, by the name the RateLimit headers give them. */
export type PolicyName =
  | 'key'
  | 'auth-failures'
  | 'webhook'
  | 'meeting'
  | 'meeting-join'
  | 'widget'
  | 'widget-key'
  | 'account'
  | 'refresh'
  | 'webhook-replay'
  | 'webhook-replay-workspace'
  | 'webhook-replay-budget'
  | 'webhook-replay-workspace-budget';

/**
 * The per-IP policies that count only the requests their route refuses (a 4xx), as `auth-failures` counts
 * failed key lookups: Twilio's webhooks. A callback with a good signature is never refused by the limiter
 * (Twilio does not retry one; a lost final callback leaves the call, its credits and its campaign slot
 * waiting for the reconciliation, minutes later), however many calls a customer runs through one of
 * Twilio's addresses. What the limit stops is a flood of forged or malformed callbacks: once an address used
 * its window, its webhooks are 429 from memory, before any signature work.
 */
export const COUNTS_REFUSALS_ONLY: ReadonlySet<PolicyName> = new Set<PolicyName>(['webhook']);

/** Built once per parsed config (one per instance): every counted request reads them. */
const policiesByConfig = new WeakMap<Config, Record<PolicyName, RatePolicy>>();

/** The policies from the parsed config. */
export function ratePolicies(config: Config): Record<PolicyName, RatePolicy> {
  let policies = policiesByConfig.get(config);
  if (!policies) {
    policies = buildPolicies(config);
    policiesByConfig.set(config, policies);
  }
  return policies;
}

function buildPolicies(config: Config): Record<PolicyName, RatePolicy> {
  return {
    key: { name: 'key', ...config.RATE_LIMIT_KEY },
    'auth-failures': { name: 'auth-failures', ...config.RATE_LIMIT_AUTH_FAILURES },
    webhook: { name: 'webhook', ...config.RATE_LIMIT_WEBHOOK },
    meeting: { name: 'meeting', ...config.RATE_LIMIT_MEETING },
    'meeting-join': { name: 'meeting-join', ...config.RATE_LIMIT_MEETING_JOIN },
    widget: { name: 'widget', ...config.RATE_LIMIT_WIDGET },
    'widget-key': { name: 'widget-key', ...config.RATE_LIMIT_WIDGET_KEY },
    account: { name: 'account', ...config.RATE_LIMIT_ACCOUNT },
    refresh: { name: 'refresh', ...config.RATE_LIMIT_REFRESH },
    'webhook-replay': { name: 'webhook-replay', ...config.RATE_LIMIT_WEBHOOK_REPLAY },
    'webhook-replay-workspace': { name: 'webhook-replay-workspace', ...config.RATE_LIMIT_WEBHOOK_REPLAY_WORKSPACE },
    'webhook-replay-budget': { name: 'webhook-replay-budget', ...config.WEBHOOK_REPLAY_BUDGET },
    'webhook-replay-workspace-budget': { name: 'webhook-replay-workspace-budget', ...config.WEBHOOK_REPLAY_WORKSPACE_BUDGET },
  };
}

/**
 * The fields of draft-ietf-httpapi-ratelimit-headers-11 (May 2026; same syntax since -08): the policy as
 * `"name";q=<quota>;w=<window seconds>` and the current limit as `"name";r=<remaining>;t=<seconds to reset>`.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const p = decision.policy;
  return {
    'ratelimit-policy': `"${p.name}";q=${p.limit};w=${p.windowSeconds}`,
    ratelimit: `"${p.name}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

const WHAT: Record<string, string> = {
  key: 'this API key',
  'auth-failures': 'failed authentications from your address',
  webhook: 'webhook requests from your address',
  meeting: 'meeting-link requests from your address',
  'meeting-join': 'meeting joins from your address',
  widget: 'widget sessions from your address',
  'widget-key': 'widget sessions with this key',
  account: 'account attempts from your address',
  refresh: 'session refreshes from your address',
  'webhook-replay': 'replays of this webhook endpoint',
  'webhook-replay-workspace': 'webhook replays in this workspace',
  'webhook-replay-budget': 'deliveries replayed to this webhook endpoint',
  'webhook-replay-workspace-budget': 'deliveries replayed in this workspace',
};

/** What a policy counts, for the 429's detail: most count requests, a budget counts what they do. */
const UNIT: Partial<Record<string, string>> = {
  'webhook-replay-budget': 'replayed deliveries',
  'webhook-replay-workspace-budget': 'replayed deliveries',
};

/** 429 with Retry-After and the RateLimit fields; the error body names the policy. */
export class RateLimitedError extends AppError {
  readonly headers: Record<string, string>;

  constructor(decision: RateDecision) {
    const p = decision.policy;
    const what = UNIT[p.name] ? `Too many ${WHAT[p.name]} (at most ${p.limit} per ${p.windowSeconds} s)` : `Too many requests for ${WHAT[p.name] ?? p.name}`;
    super(429, 'rate_limited', `${what}; retry after ${decision.resetSeconds} seconds.`, [
      { message: `at most ${p.limit} ${UNIT[p.name] ?? 'requests'} per ${p.windowSeconds} s`, policy: p.name, limit: p.limit, windowSeconds: p.windowSeconds, retryAfterSeconds: decision.resetSeconds },
    ]);
    this.headers = { ...rateLimitHeaders(decision), 'retry-after': String(decision.resetSeconds) };
  }
}

/** This instance's memory of the windows (bounded; see LocalWindows). */
const local = new LocalWindows();

/**
 * The memory's name for a partition: per table, as the memory mirrors the windows counted in that table
 * (one table in a deployment; a process that serves two, as the tests' platforms do one after another, must
 * not count one table's requests against the other's windows).
 */
const inMemory = (db: Db, partition: string) => `${db.table}\u0000${partition}`;

/**
 * Counts one request against `policy` for `partition` (a key hash, an IP): from a unit this instance
 * already reserved when it holds one, else by reserving a batch in the table. If the table cannot be
 * reached the request is let through (memory still limits this instance): a throttled counter must not take
 * the whole API down with it.
 */
export async function takeRate(db: Db, policy: RatePolicy, partition: string, nowMs = Date.now()): Promise<RateDecision> {
  const remembered = inMemory(db, partition);
  const { decision, reserve } = local.admit(policy, remembered, nowMs);
  if (reserve === 0) return decision;
  const window = { policy: policy.name, partition, startMs: windowAt(policy, nowMs).startMs, windowSeconds: policy.windowSeconds, limit: policy.limit };
  try {
    let reserved = reserve;
    let out = await countInWindow(db, window, reserved);
    if (!out.allowed && reserved > 1) {
      // The batch did not fit, but this one request may: near the limit, count one at a time.
      local.narrow(policy, remembered, nowMs);
      reserved = 1;
      out = await countInWindow(db, window, reserved);
    }
    return local.settle(policy, remembered, nowMs, reserved, out);
  } catch (error) {
    local.unanswered(policy, remembered, nowMs);
    log('warn', 'rate limiter unavailable; request let through', describeError(error));
    return decision;
  }
}

/** A budget: units of `policy` counted in `partition`'s window. */
export interface Budget {
  readonly policy: RatePolicy;
  readonly partition: string;
}

/**
 * Takes up to `wanted` units from every budget at once (the same number from each: as many as the fullest
 * has room for), for work counted by what it does rather than per request (a replay's deliveries). The
 * decision names the budget with the least room: refused when nothing was granted, with the seconds until
 * its window resets. Counted in the table (lib/store/rate-limits.ts), never in memory: these are rare
 * requests that each do much, so exactness matters more than a saved write.
 */
export async function takeBudget(db: Db, budgets: readonly Budget[], wanted: number, nowMs = Date.now()): Promise<{ granted: number; decision: RateDecision }> {
  const windows = budgets.map((b) => ({ policy: b.policy.name, partition: b.partition, startMs: windowAt(b.policy, nowMs).startMs, windowSeconds: b.policy.windowSeconds, limit: b.policy.limit }));
  const { granted, counts } = await reserveInWindows(db, windows, wanted);
  const left = budgets.map((b, i) => b.policy.limit - counts[i]!);
  const tightest = left.indexOf(Math.min(...left));
  const policy = budgets[tightest]!.policy;
  return { granted, decision: { policy, allowed: granted > 0, remaining: Math.max(0, left[tightest]!), resetSeconds: windowAt(policy, nowMs).resetSeconds } };
}

/** Whether this instance already knows the window is full (no table call, nothing counted). */
export function rateExhausted(db: Db, policy: RatePolicy, partition: string, nowMs = Date.now()): RateDecision | undefined {
  if (!local.exhausted(policy, inMemory(db, partition), nowMs)) return undefined;
  return { policy, allowed: false, remaining: 0, resetSeconds: windowAt(policy, nowMs).resetSeconds };
}
