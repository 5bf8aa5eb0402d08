import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { billedSecondsFor, costBreakdownFor, reservationFor, type Call, type CallPricing } from '../domain/call.js';
import type { CallCapability } from '../domain/provider-key.js';
import { MAX_DURATION_RANGE } from '../domain/agent.js';
import { realtimeCostFor, type RealtimeBilling } from '../domain/realtime-pricing.js';
import { InsufficientCreditsError } from '../domain/errors.js';
import type { CallEndReason } from '../domain/history.js';
import { describeError, log } from '../observability/log.js';
import { settleReservation, type SettleOutcome } from '../store/call-settlement.js';
import { claimLowCreditsAlert, listCallLedgerSince, readBalance, readCreditsState, rearmLowCreditsAlert } from '../store/credits.js';
import type { CreditsView } from '../domain/dashboard.js';
import { announce } from './webhook-events.js';

/**
 * Credits as the calls see them: what a call costs and reserves, the 402 check, and settlement. The rules
 * are in docs/calls.md.
 */

/** The platform's call pricing, from config. */
export const callPricing = (config: Pick<Config, 'CALL_CREDITS_PER_MINUTE' | 'CALL_MAX_DURATION_SECONDS' | 'CALL_PRICE_SHARES'>): CallPricing => ({
  creditsPerMinute: config.CALL_CREDITS_PER_MINUTE,
  maxDurationSeconds: config.CALL_MAX_DURATION_SECONDS,
  shares: config.CALL_PRICE_SHARES,
});

/** The 402 for a workspace that cannot cover `required`, with the balance read now. */
export async function insufficientCredits(deps: Pick<Deps, 'db'>, workspaceId: string, required: number): Promise<InsufficientCreditsError> {
  return new InsufficientCreditsError(required, Math.max(0, await readBalance(deps.db, workspaceId)));
}

/** What one call needs to start and what the workspace holds now. */
export async function callAffordability(deps: Pick<Deps, 'db' | 'config'>, workspaceId: string): Promise<{ required: number; available: number }> {
  return { required: reservationFor(callPricing(deps.config)), available: await readBalance(deps.db, workspaceId) };
}

/** Throws the 402 unless the workspace holds at least one call's reservation (meeting links). */
export async function assertCanAffordCall(deps: Pick<Deps, 'db' | 'config'>, workspaceId: string): Promise<number> {
  const { required, available } = await callAffordability(deps, workspaceId);
  if (available < required) throw new InsufficientCreditsError(required, Math.max(0, available));
  return required;
}

export interface SettleCallInput {
  readonly workspaceId: string;
  readonly callId: string;
  /** Seconds the call was connected; 0 for a call that never connected. */
  readonly durationSeconds: number;
  readonly endReason?: CallEndReason;
  /**
   * Status callbacks set this: their fields (a BYOT customer can sign them) may settle only a call whose
   * stream never started; a streamed call is settled by the stream's end with the duration it measured.
   */
  readonly unlessStreamed?: boolean;
  /** The sweep of abandoned streams: settle only while the stream's last heartbeat is still this one. */
  readonly ifStreamSeenAt?: string;
  /** When the settlement happens (epoch ms); now by default. */
  readonly nowMs?: number;
  /**
   * The capabilities that ran on the workspace's own vendor keys (known to the stream, at its start): their
   * shares are left out of the price (docs/provider-keys.md). None by default: the full price.
   */
  readonly onWorkspaceKeys?: readonly CallCapability[];
  /**
   * A speech-to-speech call: priced by the model's tokens, the platform's share and the cascade's after a
   * fallback, instead of the per-minute vendor shares (docs/realtime.md, "Billing").
   */
  readonly realtime?: RealtimeBilling;
  /** The live call as the caller has just read or written it, so it is not read a second time. */
  readonly call?: Call;
  /** The call's stream ended (or was swept): the settlement also marks it `completed`. */
  readonly complete?: boolean;
  /** With `complete`: the same transaction releases a widget session's lease (the stream's own end). */
  readonly releaseLease?: boolean;
}

/**
 * Settles a call: charges the price of `durationSeconds` (billed per started second) and releases the rest
 * of the reservation. Idempotent: the first settlement wins, any later one changes nothing and reports the
 * first's call (its `cost` and `billedSeconds`).
 */
export async function settleCall(deps: Pick<Deps, 'db' | 'config'>, input: SettleCallInput): Promise<SettleOutcome> {
  // An agent's limit may exceed the platform default; the call's own reservation (sized for its limit)
  // caps the charge, so here the seconds are capped only at the longest any agent may set.
  const platform = callPricing(deps.config);
  const pricing = { ...platform, maxDurationSeconds: Math.max(platform.maxDurationSeconds, MAX_DURATION_RANGE.max) };
  const { total, ...breakdown } = input.realtime
    ? realtimeBreakdown(realtimeCostFor(pricing, deps.config.CREDITS_PER_USD, input.durationSeconds, input.realtime, input.onWorkspaceKeys, input.call?.reserved))
    : costBreakdownFor(pricing, input.durationSeconds, input.onWorkspaceKeys);
  const out = await settleReservation(
    deps.db,
    input.workspaceId,
    input.callId,
    {
      cost: total,
      breakdown,
      billedSeconds: billedSecondsFor(pricing, input.durationSeconds),
      unlessStreamed: input.unlessStreamed,
      ifStreamSeenAt: input.ifStreamSeenAt,
      complete: input.complete,
      releaseLease: input.releaseLease,
    },
    input.endReason,
    new Date(input.nowMs ?? Date.now()).toISOString(),
    input.call,
  );
  if (out.kind === 'missing') log('warn', 'settle: no such call', { callId: input.callId, workspaceId: input.workspaceId });
  if (out.kind === 'streaming') log('info', 'settle deferred: the stream is live', { callId: input.callId });
  if (out.kind === 'settled') log('info', 'call settled', { callId: input.callId, cost: out.call.cost, reserved: out.call.reserved });
  return out;
}

/** The parts of a realtime charge kept on the call (the record's `callCostBreakdown`) and its total. */
const realtimeBreakdown = ({ total, platform, stt, llm, tts, realtime, workspaceKeys }: ReturnType<typeof realtimeCostFor>) => ({ total, platform, stt, llm, tts, realtime, workspaceKeys });

/**
 * The `credits.low` alert (docs/webhooks.md): once the balance falls under the workspace's threshold, one
 * event, then none until the balance has been back at or over it. Checked after each call's reservation
 * (what takes credits); a top-up re-arms it at the next check.
 */
export async function checkLowCredits(deps: Pick<Deps, 'db' | 'secrets' | 'webhooks'>, workspaceId: string): Promise<void> {
  try {
    const state = await readCreditsState(deps.db, workspaceId);
    if (state.lowThreshold === undefined) return;
    if (state.balance >= state.lowThreshold) {
      if (state.lowNotifiedAt) await rearmLowCreditsAlert(deps.db, workspaceId);
      return;
    }
    if (state.lowNotifiedAt || !(await claimLowCreditsAlert(deps.db, workspaceId, new Date().toISOString()))) return;
    await announce(deps, workspaceId, 'credits.low', { balance: state.balance, threshold: state.lowThreshold });
  } catch (error) {
    // An alert must never fail the call that took the credits.
    log('error', 'low-credits check failed', { workspaceId, ...describeError(error) });
  }
}

/** The credits page's window (docs/dashboard.md): a month of days. */
const USAGE_DAYS = 30;

/**
 * The balance, what running calls hold reserved, and the credits spent and calls made per UTC day over the
 * last 30 days (days without calls included, as zeros, so a chart needs no gaps filled). A call counts on
 * the day it started (its reservation's day; a chat, which reserves nothing, on its first charge's day);
 * what it spent is the sum of all its ledger entries: reservation less settlement for a call, every message
 * for a chat. A call reserved and not settled yet is running: its reservation shows as `reserved`. So the
 * page adds up to the ledger: spent plus reserved is what the window's calls and chats took.
 */
export async function creditsOverview(deps: Pick<Deps, 'db'>, workspaceId: string, now = Date.now()): Promise<CreditsView> {
  const firstDay = new Date(now - (USAGE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const [balance, entries] = await Promise.all([
    readBalance(deps.db, workspaceId),
    listCallLedgerSince(deps.db, workspaceId, Date.parse(firstDay)),
  ]);
  const calls = new Map<string, { firstAt: string; reservedAt?: string; reserved: number; settled: boolean; net: number }>();
  for (const e of entries) {
    if (!e.callId) continue;
    const call = calls.get(e.callId) ?? { firstAt: e.createdAt, reserved: 0, settled: false, net: 0 };
    call.net += e.amount;
    // Entries sort by id, not time (`#msg10` before `#msg2`): the earliest one dates a chat.
    if (e.createdAt < call.firstAt) call.firstAt = e.createdAt;
    if (e.reason === 'call_reservation') {
      call.reserved = -e.amount;
      call.reservedAt = e.createdAt;
    } else if (e.reason === 'call_settlement') call.settled = true;
    calls.set(e.callId, call);
  }
  const days = new Map<string, { credits: number; calls: number }>();
  for (let i = 0; i < USAGE_DAYS; i += 1) days.set(new Date(Date.parse(firstDay) + i * 86_400_000).toISOString().slice(0, 10), { credits: 0, calls: 0 });
  let reserved = 0;
  for (const call of calls.values()) {
    if (call.reservedAt !== undefined && !call.settled) {
      reserved += call.reserved;
      continue;
    }
    const day = days.get((call.reservedAt ?? call.firstAt).slice(0, 10));
    if (!day) continue;
    day.credits = roundCredits(day.credits - call.net);
    day.calls += 1;
  }
  return { balance, reserved: roundCredits(reserved), usage: [...days].map(([day, v]) => ({ day, ...v })) };
}

/** Sums of fractional credits drift in binary floating point; the ledger's amounts have at most 6 decimals. */
const roundCredits = (n: number) => Math.round(n * 1e6) / 1e6;
