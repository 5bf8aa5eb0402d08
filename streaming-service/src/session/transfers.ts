import type { CallTransfer } from '../../../lib/domain/call.js';
import type { CallSetup } from '../call/types.js';
import type { Conversation } from '../conversation/conversation.js';
import type { EndCause } from '../frames.js';
import type { CallControl } from './action-context.js';
import { coldTransfer, movedByTransfer, transferRecord, warmTransfer, WarmAttempt, type SessionTelephony, type TransferResult } from './transfer.js';

/** What the transfers of one call may see and do: the line, the call's state and its end. */
export interface TransferContext extends Pick<CallControl, 'state' | 'end' | 'isEnded'> {
  readonly telephony: SessionTelephony | undefined;
  readonly callSid: string;
  /** For a warm transfer started without the model (a keypad shortcut): what the target hears. */
  summary(): string;
  /** Told when the provider took a transfer (the platform announces `call.transfer`). */
  readonly onTransfer?: (to: string) => void;
}

type Pending = { readonly destination: string; readonly mode: 'cold' | 'warm'; readonly warm?: WarmAttempt };

/**
 * A call's transfers (transfer.ts does the telephony): at most one under way, the last one's record for the
 * history, and what a stream stop during one means. A redirect ends the caller's stream, so a stop while a
 * transfer runs is either the transfer working or the caller hanging up meanwhile; which one is looked up
 * before the call is allowed to end ({@link settleStop}).
 */
export class Transfers {
  private pending: Pending | undefined;
  /** A stream stop during a transfer is being looked into. */
  private settling = false;
  /** The last transfer tried, with its outcome (the history record's `transfer`). */
  last: CallTransfer | undefined;

  constructor(private readonly ctx: TransferContext) {}

  /** A stop is being looked into: the call's end waits for {@link settleStop} to decide it. */
  get isSettling(): boolean {
    return this.settling;
  }

  /**
   * Moves the caller to `to`: cold at once, warm once the target accepted. On success the call ends as
   * `transferred`; otherwise it goes on and the result says why.
   */
  async start(to: string, mode: 'cold' | 'warm' = 'cold', summary = ''): Promise<TransferResult> {
    if (this.ctx.state.isEnding || this.pending) return { ok: false, outcome: 'failed', reason: 'a transfer is already under way' };
    const warm = mode === 'warm' ? new WarmAttempt() : undefined;
    this.pending = { destination: to, mode, warm };
    const { telephony, callSid } = this.ctx;
    const result = warm ? await warmTransfer(telephony, to, summary || this.ctx.summary(), warm) : await coldTransfer(telephony, callSid, to);
    this.pending = undefined;
    // A stream stop while this ran is being settled by settleStop, which keeps its own record.
    if (this.ctx.isEnded() || this.settling) return result;
    this.last = transferRecord(to, mode, result);
    if (!result.ok) return result;
    this.ctx.onTransfer?.(to);
    if (this.ctx.state.canGo('transferring')) this.ctx.state.go('transferring');
    this.ctx.end('transferred');
    return result;
  }

  /**
   * The stream stopped: during a transfer, looks up whether the call is still up at the provider (moved:
   * `transferred`) or not (the caller hung up, `cause`), then ends the call; true when it took the stop.
   */
  settleStop(cause: EndCause): boolean {
    const pending = this.pending;
    if (!pending) return false;
    this.settling = true;
    void movedByTransfer(this.ctx.telephony, this.ctx.callSid, pending.warm).then((moved) => {
      this.settling = false;
      pending.warm?.finish(moved ? 'bridged' : 'abandoned');
      const result: TransferResult = moved
        ? { ok: true, outcome: pending.mode === 'warm' ? 'accepted' : 'transferred' }
        : { ok: false, outcome: 'failed', reason: 'the caller hung up' };
      this.last = transferRecord(pending.destination, pending.mode, result);
      this.ctx.end(moved ? 'transferred' : cause);
    });
    return true;
  }
}

/**
 * What a warm transfer's target hears when the model wrote no summary (a keypad shortcut): who is calling,
 * and their last words.
 */
export function callerSummary(setup: Pick<CallSetup, 'contact' | 'callerNumber'>, conversation: Conversation): string {
  const who = setup.contact?.contactName || setup.callerNumber || 'A caller';
  const lastWords = conversation.entries.findLast((e) => e.type === 'user');
  const said = lastWords?.type === 'user' ? ` Their last words were: ${lastWords.text}` : '';
  return `${who} is on the line for you.${said}`;
}
