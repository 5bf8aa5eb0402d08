import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { costFor, reservationFor, type CallPricing } from '../domain/call.js';
import { InsufficientCreditsError } from '../domain/errors.js';
import type { CallEndReason } from '../domain/history.js';
import { log } from '../http/log.js';
import { settleReservation } from '../store/calls.js';
import { chargeOnce, readBalance } from '../store/credits.js';

/**
 * Credits as the calls see them: what a call costs and reserves, the 402 check, and settlement. The rules
 * are in docs/calls.md.
 */

/** The platform's call pricing, from config. */
export const callPricing = (config: Pick<Config, 'CALL_CREDITS_PER_MINUTE' | 'CALL_MAX_DURATION_SECONDS'>): CallPricing => ({
  creditsPerMinute: config.CALL_CREDITS_PER_MINUTE,
  maxDurationSeconds: config.CALL_MAX_DURATION_SECONDS,
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
}

/**
 * Settles a call: charges the price of `durationSeconds` and releases the rest of the reservation.
 * Idempotent: the first settlement wins, any later one changes nothing and returns the first's cost. So
 * the streaming service (end of stream) and the final status callback may both call it. Returns the cost
 * charged, or undefined for an unknown call.
 */
export async function settleCall(deps: Pick<Deps, 'db' | 'config'>, input: SettleCallInput): Promise<number | undefined> {
  const cost = costFor(callPricing(deps.config), input.durationSeconds);
  const out = await settleReservation(deps.db, input.workspaceId, input.callId, cost, input.endReason, new Date().toISOString());
  if (out.kind === 'missing') {
    log('warn', 'settle: no such call', { callId: input.callId, workspaceId: input.workspaceId });
    return undefined;
  }
  if (out.kind === 'settled') log('info', 'call settled', { callId: input.callId, cost: out.call.cost, reserved: out.call.reserved });
  return out.call.cost ?? cost;
}

/**
 * Charges a call that reserved nothing up front (an inbound call: the caller, not the API, started it, and
 * the voice webhook only checked that the workspace could afford one call). It pays the same per-minute
 * price as an outbound call; when the balance ran short meanwhile, it takes what is left, so the balance
 * never goes below zero. Charging twice changes nothing. Returns the credits charged.
 */
export async function chargeUnreservedCall(
  deps: Pick<Deps, 'db' | 'config'>,
  input: { workspaceId: string; callId: string; durationSeconds: number },
): Promise<number> {
  const cost = costFor(callPricing(deps.config), input.durationSeconds);
  const createdAt = new Date().toISOString();
  // Another call may spend the balance between the read and the write; the condition catches that.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const available = Math.max(0, await readBalance(deps.db, input.workspaceId));
    const amount = Math.min(cost, available);
    if (amount <= 0) return 0;
    const outcome = await chargeOnce(deps.db, input.workspaceId, input.callId, amount, createdAt);
    if (outcome !== 'insufficient') return amount;
  }
  log('warn', 'inbound charge gave up under contention', { callId: input.callId, workspaceId: input.workspaceId });
  return 0;
}
