import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { costFor, reservationFor, type CallPricing } from '../domain/call.js';
import { InsufficientCreditsError } from '../domain/errors.js';
import type { CallEndReason } from '../domain/history.js';
import { log } from '../http/log.js';
import { settleReservation } from '../store/calls.js';
import { readBalance } from '../store/credits.js';

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

/** Throws the 402 unless the workspace holds at least one call's reservation (meeting links). */
export async function assertCanAffordCall(deps: Pick<Deps, 'db' | 'config'>, workspaceId: string): Promise<number> {
  const required = reservationFor(callPricing(deps.config));
  const available = await readBalance(deps.db, workspaceId);
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
