import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import type { Call } from '../domain/call.js';
import { TooManyWidgetSessionsError } from '../domain/widget.js';
import { describeError, log } from '../observability/log.js';
import { confirmWidgetLease, takeWidgetLease } from '../store/widget-leases.js';

/**
 * The places widget sessions hold on their key (docs/widget.md, abuse limits): a pending lease when a
 * session is handed out, confirmed for the session's length when its first socket claims it, released when
 * it ends. Kept apart from lib/services/widget.ts, which imports the meeting use cases: the meeting and chat
 * claims confirm leases from here without an import cycle.
 */

/** Who holds a widget session's lease: the key (its hash) and the visitor (a hash of key and address). */
export interface WidgetLeaseHolder {
  readonly keyHash: string;
  readonly visitor: string;
}

/**
 * The visitor a lease is counted for: the address, hashed with the key so the table holds no address and
 * the same visitor on two keys is not linkable.
 */
export const widgetVisitor = (keyHash: string, sourceIp: string): string =>
  createHash('sha256').update(`${keyHash}\u0000${sourceIp}`).digest('base64url').slice(0, 22);

/**
 * Takes the key's lease for a new session (429 when the visitor's address or the key has its maximum open,
 * with the true wait) and marks the call with the key, so the session's end releases it. The lease is
 * pending: it holds the place for WIDGET_PENDING_LEASE_SECONDS, and the call can be claimed only until then;
 * the claim of its first socket extends it to the session's length ({@link confirmWidgetSession}).
 */
export async function leased(deps: Pick<Deps, 'db' | 'config'>, holder: WidgetLeaseHolder, call: Call, nowMs: number): Promise<Call> {
  const { config } = deps;
  const limits = { perKey: config.WIDGET_MAX_SESSIONS_PER_KEY, perVisitor: config.WIDGET_MAX_SESSIONS_PER_IP };
  const claimByMs = nowMs + config.WIDGET_PENDING_LEASE_SECONDS * 1000;
  const out = await takeWidgetLease(deps.db, holder.keyHash, call._id, holder.visitor, limits, claimByMs, nowMs);
  if (!out.taken) {
    const limit = out.scope === 'key' ? limits.perKey : limits.perVisitor;
    throw new TooManyWidgetSessionsError(out.scope, limit, Math.max(1, Math.ceil((out.freesAtMs - nowMs) / 1000)));
  }
  return { ...call, widgetKeyHash: holder.keyHash, widgetClaimBy: new Date(claimByMs).toISOString() };
}

/**
 * A widget session's first socket claimed it: its lease now holds until the session's longest end. A lease
 * that cannot be extended (the table failing) is logged, not fatal: the session runs, and its place frees
 * when the pending lease runs out.
 */
export async function confirmWidgetSession(deps: Pick<Deps, 'db'>, call: Pick<Call, '_id' | 'widgetKeyHash' | 'maxDurationSeconds'>, nowMs: number): Promise<void> {
  if (!call.widgetKeyHash) return;
  try {
    await confirmWidgetLease(deps.db, call.widgetKeyHash, call._id, nowMs + call.maxDurationSeconds * 1000);
  } catch (error) {
    log('warn', 'widget lease not extended', { callId: call._id, ...describeError(error) });
  }
}
