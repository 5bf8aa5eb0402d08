import { STREAM_ABANDONED_AFTER_MS, type Call } from '../domain/call.js';
import { describeError, log } from '../observability/log.js';
import { findStaleStreams } from '../store/call-indexes.js';
import { writeHistoryRecord, type HistoryDeps } from './call-events.js';
import { historyOf } from '../domain/call-record.js';
import { settleCall } from './credits.js';

/**
 * The sweep of abandoned streams: a call whose stream was claimed is settled only by the stream's end (a
 * status callback may not: a BYOT customer can forge it). When the streaming service's container dies
 * mid-call, nothing ever ends that stream, so this use case, run on a schedule, settles such calls with
 * what the service had measured before it went silent. docs/calls.md, "Abandoned streams".
 */

/** What the summary of a swept call says: the truth, since no transcript or summary survived. */
export const ABANDONED_STREAM_SUMMARY =
  'The call was cut off: the streaming service stopped during the call, so no transcript or summary was kept. ' +
  'It is billed up to the last moment the service reported the call as running.';

export interface SweepOptions {
  /** The sweep's clock (epoch ms). */
  readonly nowMs?: number;
  /** How long a stream may go unseen before it counts as abandoned; {@link STREAM_ABANDONED_AFTER_MS}. */
  readonly abandonedAfterMs?: number;
  /**
   * At most this many calls per run, so one run stays well inside its Lambda timeout; the next run takes
   * the rest (a backlog of this size means a fleet-wide outage, not a normal day).
   */
  readonly limit?: number;
}

export interface SweepResult {
  /** Calls this run settled, with the seconds billed. */
  readonly settled: readonly { callId: string; workspaceId: string; billedSeconds: number; cost: number }[];
  /** Candidates that proved alive (a newer heartbeat) or were settled by someone else first. */
  readonly skipped: number;
}

const DEFAULTS = { abandonedAfterMs: STREAM_ABANDONED_AFTER_MS, limit: 200 } as const satisfies SweepOptions;

/**
 * Finds the claimed, unsettled streams whose last heartbeat is older than the grace (through the sparse
 * live-stream index, never a scan) and settles each: billed from the claim to its last heartbeat (rounded
 * up, as every call), marked `completed` with end reason `error`, and given its history record (no
 * transcript; the summary says why). Each settlement is conditioned on the heartbeat it measured to, so a
 * stream that beats meanwhile is never settled, and on the call being unsettled, so the stream's own end
 * and a concurrent sweep cannot settle it twice (first writer wins).
 */
export async function settleAbandonedStreams(deps: HistoryDeps, options: SweepOptions = {}): Promise<SweepResult> {
  const { abandonedAfterMs, limit } = { ...DEFAULTS, ...options };
  const nowMs = options.nowMs ?? Date.now();
  const cutoffMs = nowMs - abandonedAfterMs;
  const candidates = await findStaleStreams(deps.db, new Date(cutoffMs).toISOString(), limit);
  const settled: SweepResult['settled'][number][] = [];
  let skipped = 0;
  for (const call of candidates) {
    const done = await settleAbandoned(deps, call, cutoffMs, nowMs).catch((error: unknown) => {
      // One call's failure must not hold up the others; the next run tries it again.
      log('error', 'sweep: settling an abandoned stream failed', { callId: call._id, ...describeError(error) });
      return undefined;
    });
    if (done) settled.push(done);
    else skipped += 1;
  }
  if (candidates.length > 0) log('info', 'sweep of abandoned streams', { candidates: candidates.length, settled: settled.length, skipped });
  return { settled, skipped };
}

async function settleAbandoned(deps: HistoryDeps, call: Call, cutoffMs: number, nowMs: number) {
  const { streamStartedAt: startedAt, streamSeenAt: seenAt } = call;
  // Re-checked here: the index entry is what the query saw, the item may be newer (the write re-checks too).
  if (!startedAt || !seenAt || call.settledAt !== undefined || Date.parse(seenAt) >= cutoffMs) return undefined;
  const measuredSeconds = Math.max(0, (Date.parse(seenAt) - Date.parse(startedAt)) / 1000);
  const out = await settleCall(deps, {
    workspaceId: call.workspaceId,
    callId: call._id,
    durationSeconds: measuredSeconds,
    endReason: 'error',
    ifStreamSeenAt: seenAt,
    nowMs,
    // Completed in the settlement's own transaction. A widget session's lease is left to expire: the sweep
    // holds no delete grant (lib/infra bindStreamSweep), and a lease runs out by the session's longest end.
    complete: true,
  });
  if (out.kind !== 'settled') return undefined;
  const ended = out.call;
  const billedSeconds = ended.billedSeconds ?? 0;
  const cost = ended.cost ?? 0;
  await writeHistoryRecord(
    deps,
    historyOf(ended, { endReason: ended.endReason ?? 'error', durationSeconds: billedSeconds, cost, summary: ABANDONED_STREAM_SUMMARY }),
  );
  log('warn', 'abandoned stream settled', { callId: ended._id, workspaceId: ended.workspaceId, billedSeconds, cost, lastSeenAt: seenAt });
  return { callId: ended._id, workspaceId: ended.workspaceId, billedSeconds, cost };
}
