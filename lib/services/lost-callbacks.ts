import type { Deps } from '../deps.js';
import { LOST_CALLBACK_AFTER_MS, STUCK_AFTER_FAILED_ASKS, TERMINAL_CALL_STATES, stateOfProviderStatus, type Call } from '../domain/call.js';
import { describeError, log } from '../observability/log.js';
import { findCall, recheckDialedCallLater } from '../store/calls.js';
import { findQuietDialedCalls } from '../store/call-indexes.js';
import { applyProviderStatus } from './call-status.js';
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
  /**
   * Calls this run could not ask about for the {@link STUCK_AFTER_FAILED_ASKS}th time in a row or more:
   * stuck, their credits reserved until someone looks ({@link assertNoStuckCalls}).
   */
  readonly stuck: readonly { callId: string; workspaceId: string; failures: number }[];
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
  const now = new Date(nowMs).toISOString();
  const ended: ReconcileResult['ended'][number][] = [];
  const stuck: ReconcileResult['stuck'][number][] = [];
  for (const candidate of candidates) {
    const done = await reconcile(deps, candidate, now).catch(async (error: unknown) => {
      // One call's failure (Twilio down, a revoked BYOT token, a sid Twilio no longer knows) must not hold up
      // the others, in this run or the next: the call goes behind the calls that waited longer (the oldest
      // come first, and a run takes at most `limit`) and is asked again a quiet period later.
      const failures = (candidate.reconcileFailures ?? 0) + 1;
      const ids = { callId: candidate._id, workspaceId: candidate.workspaceId };
      log('error', 'reconciliation: asking about a call failed', { ...ids, failures, ...describeError(error) });
      await recheckDialedCallLater(deps.db, candidate.workspaceId, candidate._id, now, failures).catch((moveError: unknown) =>
        log('error', 'reconciliation: could not put a failed call back in line', { ...ids, ...describeError(moveError) }),
      );
      if (failures >= STUCK_AFTER_FAILED_ASKS) stuck.push({ ...ids, failures });
      return undefined;
    });
    if (done) ended.push(done);
  }
  const skipped = candidates.length - ended.length;
  if (candidates.length > 0) log('info', 'reconciliation of lost status callbacks', { candidates: candidates.length, ended: ended.length, skipped, stuck: stuck.length });
  return { ended, skipped, stuck };
}

/**
 * Ends a scheduled run in an error when it found stuck calls, after it has done all it could: the error is
 * what the scheduled functions' error alarm counts (lib/infra/constructs/monitoring.ts; the rule does not
 * retry a run). Names how many and the first few call ids, never a credential.
 */
export function assertNoStuckCalls(result: ReconcileResult): ReconcileResult {
  if (result.stuck.length === 0) return result;
  const first = result.stuck.slice(0, 5).map((c) => `${c.callId} (${c.failures} runs)`).join(', ');
  throw new Error(`lost-callback reconciliation: ${result.stuck.length} call(s) could not be asked about ${STUCK_AFTER_FAILED_ASKS} or more runs in a row, their credits still reserved: ${first}`);
}

/** Why a call could not be asked about: its number was released, or its BYOT credentials removed. */
class NoAccountToAsk extends Error {
  constructor(numberId: string | undefined) {
    super(`no Twilio account to ask with: number ${numberId ?? '(none)'} was released or its credentials removed`);
  }
}

async function reconcile(deps: ReconcileDeps, candidate: Call, now: string) {
  // Re-read: the index entry is what the query saw; the call may have settled or streamed since.
  const call = await findCall(deps.db, candidate.workspaceId, candidate._id);
  if (!call?.providerCallSid || call.settledAt !== undefined || call.streamStartedAt !== undefined) return undefined;
  const { account } = await accountFor(deps, call.workspaceId, call.phoneNumberId ?? '');
  // Nobody can ask: a failed ask like any other (counted, put back in line, reported once stuck).
  if (!account) throw new NoAccountToAsk(call.phoneNumberId);
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
