import type { CallTransfer } from '../../../lib/domain/call.js';
import type { TelephonyAccount, TelephonyPort } from '../../../lib/vendors/telephony/port.js';
import { dialTwiml, warmTransferTwiml } from '../../../lib/vendors/telephony/twilio-webhook.js';

/**
 * Transfers (docs/telephony.md, Transfer). Cold: the caller's call is redirected to `<Dial>` the
 * destination; the stream ends and the call is `transferred`. Warm: a second call rings the destination
 * with a summary and a choice (1 = take the call); accepting runs our /twilio/transfer webhook, which
 * bridges both calls in a conference (the caller's stream ends there). Meanwhile this side watches the
 * second call: if it ends unanswered, busy, failed or declined, the caller is still with the agent, who
 * is told why and carries on.
 */

/** The telephony a session may use: absent on calls without a phone line. */
export interface SessionTelephony {
  readonly port: TelephonyPort;
  account(): Promise<TelephonyAccount | undefined>;
  /** Our number on the call (the caller ID of a warm transfer's second call). */
  ourNumber?(): Promise<string | undefined>;
  /** Where the warm transfer's `<Gather>` posts the target's key (our signed webhook, naming this call). */
  readonly transferActionUrl?: string;
}

export type TransferResult =
  | { readonly ok: true; readonly outcome: 'transferred' | 'accepted' }
  | { readonly ok: false; readonly outcome: 'declined' | 'no-answer' | 'busy' | 'failed'; readonly reason: string };

export interface WarmTransferOptions {
  /** How often the second call is checked. A second: the caller is waiting, Twilio's REST is cheap. */
  readonly pollMs: number;
  /** Ring time of the second call before it counts as unanswered. */
  readonly ringSeconds: number;
  /** Longest the whole attempt may take (ring, summary, choice) before it is given up. */
  readonly maxWaitMs: number;
}

export const DEFAULT_WARM_TRANSFER = { pollMs: 1_000, ringSeconds: 20, maxWaitMs: 60_000 } as const satisfies WarmTransferOptions;

const refused = (reason: string): TransferResult => ({ ok: false, outcome: 'failed', reason });

/** Redirects the caller's call to the destination. */
export async function coldTransfer(t: SessionTelephony | undefined, callSid: string, destination: string): Promise<TransferResult> {
  const account = await t?.account().catch(() => undefined);
  if (!t || !account) return refused('this call has no phone line to transfer');
  try {
    await t.port.updateCall(account, callSid, { twiml: dialTwiml(destination) });
    return { ok: true, outcome: 'transferred' };
  } catch {
    return refused('the transfer could not be started');
  }
}

/**
 * What the session and a warm transfer in progress share: the second call, once placed, and the end of
 * the attempt. `bridged` resolves when the caller's stream ended because the webhook moved the caller into
 * the conference (accepted); `abandoned` when it ended because the caller left (the second call is then
 * cancelled).
 */
export class WarmAttempt {
  legSid: string | undefined;
  private resolveEnd!: (how: 'bridged' | 'abandoned') => void;
  readonly ended = new Promise<'bridged' | 'abandoned'>((resolve) => {
    this.resolveEnd = resolve;
  });
  finish(how: 'bridged' | 'abandoned'): void {
    this.resolveEnd(how);
  }
}

/**
 * Whether a stream stop during a transfer was the transfer: the caller's call is still up at the provider
 * (a redirect ends the stream, not the call) and, for a warm one, the target's call too (they accepted and
 * joined the conference). A caller who hung up ends their call; unknown counts as hung up.
 */
export async function movedByTransfer(t: SessionTelephony | undefined, callSid: string, attempt?: WarmAttempt): Promise<boolean> {
  if (!(await callStillUp(t, callSid))) return false;
  return attempt === undefined || (attempt.legSid !== undefined && (await callStillUp(t, attempt.legSid)));
}

/** Rings the destination with the summary and waits for its answer (see {@link WarmAttempt}). */
export async function warmTransfer(
  t: SessionTelephony | undefined,
  destination: string,
  summary: string,
  attempt: WarmAttempt,
  options: WarmTransferOptions = DEFAULT_WARM_TRANSFER,
): Promise<TransferResult> {
  const account = await t?.account().catch(() => undefined);
  const from = await t?.ourNumber?.().catch(() => undefined);
  if (!t || !account || !from || !t.transferActionUrl) return refused('this call has no phone line to transfer');
  let legSid: string;
  try {
    const leg = await t.port.createCall(account, {
      to: destination,
      from,
      twiml: warmTransferTwiml(summary, t.transferActionUrl),
      timeoutSeconds: options.ringSeconds,
    });
    legSid = leg.sid;
    attempt.legSid = legSid;
  } catch {
    return refused('the transfer could not be started');
  }
  let end: 'bridged' | 'abandoned' | undefined;
  void attempt.ended.then((how) => {
    end = how;
  });
  const hangUpLeg = () => t.port.updateCall(account, legSid, { status: 'completed' }).catch(() => undefined);
  const until = performance.now() + options.maxWaitMs;
  while (end === undefined) {
    const status = await t.port.fetchCall(account, legSid).then(
      (c) => c.status,
      () => undefined,
    );
    if (end !== undefined) break;
    const ended = status && legOutcome(status);
    if (ended) return ended;
    if (performance.now() > until) {
      await hangUpLeg();
      return { ok: false, outcome: 'no-answer', reason: 'nobody took the call in time' };
    }
    await Promise.race([attempt.ended, new Promise((r) => setTimeout(r, options.pollMs))]);
  }
  if (end === 'bridged') return { ok: true, outcome: 'accepted' };
  // The caller left while the target was being asked: nobody is left to connect them to.
  await hangUpLeg();
  return { ok: false, outcome: 'failed', reason: 'the caller hung up' };
}

/** A second call that ended without bridging: why, in words the model can pass on. */
function legOutcome(status: string): TransferResult | undefined {
  switch (status) {
    case 'busy':
      return { ok: false, outcome: 'busy', reason: 'the line was busy' };
    case 'no-answer':
      return { ok: false, outcome: 'no-answer', reason: 'nobody answered' };
    case 'failed':
    case 'canceled':
      return { ok: false, outcome: 'failed', reason: 'the call could not be placed' };
    case 'completed':
      return { ok: false, outcome: 'declined', reason: 'they could not take the call right now' };
    default:
      return undefined;
  }
}

/**
 * Whether the caller's call is still up at the provider after its stream stopped: a transfer's redirect
 * ends the stream but not the call; a caller who hung up ends both. Unknown (no line, provider down)
 * counts as hung up, the conservative record.
 */
async function callStillUp(t: SessionTelephony | undefined, callSid: string): Promise<boolean> {
  const account = await t?.account().catch(() => undefined);
  if (!t || !account) return false;
  const call = await t.port.fetchCall(account, callSid).catch(() => undefined);
  return call?.status === 'in-progress';
}

/** What the history record keeps of a transfer. */
export const transferRecord = (destination: string, mode: 'cold' | 'warm', result: TransferResult): CallTransfer => ({
  destination,
  mode,
  outcome: result.outcome,
});

/** Hangs up the caller's call; best effort: the stream's socket closing hangs up anyway when no TwiML verb follows. */
export async function hangUpCall(t: SessionTelephony | undefined, callSid: string): Promise<void> {
  try {
    const account = await t?.account();
    if (t && account) await t.port.updateCall(account, callSid, { status: 'completed' });
  } catch {
    // Already ended (20404) or telephony unreachable: closing the stream ends the call.
  }
}
