import type { Deps } from '../deps.js';
import { LOST_CALLBACK_AFTER_MS, TERMINAL_CALL_STATES, stateOfProviderStatus, type Call } from '../domain/call.js';
import { describeError, log } from '../http/log.js';
import { findCall, findQuietDialedCalls, recheckDialedCallLater } from '../store/calls.js';
import { applyProviderStatus } from './calls.js';
import { accountFor } from './dispatch.js';

/**
 * The reconciliation of lost status callbacks: Twilio does not retry a status callback we answered with a
 * 429 or 5xx, so a dialed call whose final callback was refused would stay `dialing`/`ringing`/`in-progress`
 * with its credits reserved for good. Run on a schedule, this asks Twilio for the real status of each such
 * call and applies it exactly as the callback would have (settlement, history, campaign, webhooks). A call
 * whose stream started is the sweep of abandoned streams' (its stream's end settles it, never a status).
 * docs/calls.md, "Lost status callbacks".
 */

export type ReconcileDeps = Pick<Deps, 'config' | 'db' | 'secrets' | 'telephony' | 'webhooks'>;

export interface ReconcileOptions {
  /** The run's clock (epoch ms). */
  readonly nowMs?: number;
  /** How long a dialed call stays quiet before Twilio is asked about it; {@link LOST_CALLBACK_AFTER_MS}. */
  readonly quietAfterMs?: number;
  /** At most this many calls per run (one Twilio request each), so a run stays inside its Lambda timeout. */
  readonly limit?: number;
}

export interface ReconcileResult {
  /** Calls this run ended with the status Twilio reported. */
  readonly ended: readonly { callId: string; workspaceId: string; status: string }[];
  /** Calls still live at Twilio (asked again after another wait), settled meanwhile, or not answerable now. */
  readonly skipped: number;
}

const DEFAULTS = { quietAfterMs: LOST_CALLBACK_AFTER_MS, limit: 100 } as const satisfies ReconcileOptions;

/**
 * Finds the dialed, never-streamed, unsettled calls quiet since before the cutoff (through the sparse
 * dialed-call index, never a scan) and reconciles each with its status at Twilio, asked with the account
 * the call was placed from (the platform's, or the workspace's own for a BYOT number).
 */
export async function reconcileLostCallbacks(deps: ReconcileDeps, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const { quietAfterMs, limit } = { ...DEFAULTS, ...options };
  const nowMs = options.nowMs ?? Date.now();
  const candidates = await findQuietDialedCalls(deps.db, new Date(nowMs - quietAfterMs).toISOString(), limit);
  const ended: ReconcileResult['ended'][number][] = [];
  for (const candidate of candidates) {
    const done = await reconcile(deps, candidate, new Date(nowMs).toISOString()).catch((error: unknown) => {
      // One call's failure (Twilio down, a revoked BYOT token) must not hold up the others; the next run retries.
      log('error', 'reconciliation: asking about a call failed', { callId: candidate._id, ...describeError(error) });
      return undefined;
    });
    if (done) ended.push(done);
  }
  const skipped = candidates.length - ended.length;
  if (candidates.length > 0) log('info', 'reconciliation of lost status callbacks', { candidates: candidates.length, ended: ended.length, skipped });
  return { ended, skipped };
}

async function reconcile(deps: ReconcileDeps, candidate: Call, now: string) {
  // Re-read: the index entry is what the query saw; the call may have settled or streamed since.
  const call = await findCall(deps.db, candidate.workspaceId, candidate._id);
  if (!call?.providerCallSid || call.settledAt !== undefined || call.streamStartedAt !== undefined) return undefined;
  const { account } = await accountFor(deps, call.workspaceId, call.phoneNumberId ?? '');
  if (!account) {
    // The number was released or its BYOT token removed: nobody can ask; try again later, loudly.
    log('warn', 'reconciliation: no account to ask about a call', { callId: call._id, numberId: call.phoneNumberId });
    await recheckDialedCallLater(deps.db, call.workspaceId, call._id, now);
    return undefined;
  }
  const provider = await deps.telephony.port.fetchCall(account, call.providerCallSid);
  const state = stateOfProviderStatus(provider.status);
  if (!state || !TERMINAL_CALL_STATES.has(state)) {
    await recheckDialedCallLater(deps.db, call.workspaceId, call._id, now);
    return undefined;
  }
  await applyProviderStatus(deps, call.workspaceId, call._id, {
    callSid: provider.sid,
    status: provider.status,
    ...(provider.durationSeconds === null ? {} : { durationSeconds: provider.durationSeconds }),
  });
  log('warn', 'reconciliation: a lost final status callback applied', { callId: call._id, workspaceId: call.workspaceId, status: provider.status });
  return { callId: call._id, workspaceId: call.workspaceId, status: provider.status };
}
