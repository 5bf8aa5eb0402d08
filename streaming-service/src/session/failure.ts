import { failureReason } from '../../../lib/domain/call-end.js';
import type { CallFailure } from '../../../lib/domain/call-timeline.js';
import { describeError } from '../../../lib/observability/log.js';
import { failureKind } from '../../../lib/vendors/shared/errors.js';
import type { EndCause } from '../frames.js';
import type { CallControl } from './action-context.js';
import type { SpeechHandle } from './speech-handle.js';
import type { CallTimeline } from './timeline.js';

export interface FailureLines {
  /** Said when the model fails on a turn, so the caller is asked to repeat instead of being hung up on. */
  readonly apologyPhrase: string;
  /** Said before the call ends for a failure (the recognizer or the model stayed down). */
  readonly failurePhrase: string;
}

/** The failure apology gets this long to play; marks that never come back must not hold a broken call open. */
const FAILURE_PLAYOUT_CAP_MS = 10_000;

/** Replies the model may fail in a row: a third means it is down, not having a bad moment. */
const MAX_REPLY_FAILURES = 3;

/** Where a failure happened: a vendor stage, or the session itself (a fault of ours, which names no vendor). */
export type FailureStage = 'stt' | 'tts' | 'llm' | 'session';

/**
 * What a call does when a part of it fails after that part's own retries and fallbacks: a reply the model
 * failed costs an apology, repeated ones or a dead recognizer end the call, with the caller told first. A
 * vendor's failure ends the call with a reason that names the stage and what went wrong
 * (`tts_voice_not_found`, `llm_rate_limited`, ...: lib/domain/call-end.ts) and leaves the error, safe to show,
 * for the record's `callError`; every failure is on the call's timeline.
 */
export class FailurePolicy {
  private failing = false;
  /** Consecutive replies the model failed. */
  private replyFailures = 0;
  /** The vendor failure that ended the call, once one did. */
  private ending: CallFailure | undefined;

  constructor(
    private readonly ctx: CallControl,
    private readonly lines: FailureLines,
    private readonly timeline: CallTimeline,
  ) {}

  /** The vendor failure that ended the call, if one did (the record's `callError`). */
  get failure(): CallFailure | undefined {
    return this.ending;
  }

  /** The call is on its way out after a failure: no new turn starts. */
  get isFailing(): boolean {
    return this.failing;
  }

  /**
   * A vendor failed mid-call after its retries: the call cannot go on without hearing or thinking. The
   * caller is told before the line goes dead (a silent hang-up sounds like a dropped call), unless speech
   * itself is what failed; the apology gets a bounded time to play.
   */
  fail(where: FailureStage, error: unknown): void {
    if (this.failing || this.ctx.isEnded()) return;
    this.failing = true;
    this.ctx.log.log('error', 'call failed', { where, ...describeError(error) });
    const cause = this.endCauseOf(where, error);
    const { state } = this.ctx;
    // A call ending or being transferred has nobody left to apologize to.
    if (where === 'tts' || state.isEnding || state.state === 'transferring') return this.ctx.end(cause);
    this.ctx.interrupt();
    const { handle } = this.ctx.say(this.lines.failurePhrase);
    setTimeout(() => this.ctx.end(cause), FAILURE_PLAYOUT_CAP_MS).unref?.();
    void handle.whenSettled().then(() => this.ctx.end(cause));
  }

  /**
   * A line the call goes on without failed to speak after its retries and fallbacks: a realtime call's
   * cascade voice (its fillers), whose model carries the call in its own voice. Noted on the timeline, not
   * fatal; the line's handle has settled, so the call carries on.
   */
  lineLost(where: Exclude<FailureStage, 'session'>, error: unknown): void {
    if (this.failing || this.ctx.isEnded()) return;
    this.ctx.log.log('warn', 'line not spoken; the call goes on', { where, ...describeError(error) });
    this.timeline.vendorError(where, error, false);
  }

  /** The end a failure makes: a vendor's names its stage and kind, and is kept as the call's error. */
  private endCauseOf(where: FailureStage, error: unknown): EndCause {
    if (where === 'session') return 'error';
    const atSecond = this.timeline.secondsAt();
    const shown = this.timeline.vendorError(where, error, true);
    const reason = failureReason(where, failureKind(error));
    this.ending = { reason, error: { stage: where, ...shown, atSecond } };
    return reason;
  }

  replied(): void {
    this.replyFailures = 0;
  }

  /**
   * The LLM failed a reply after its own retries. One bad request should not cost the caller the call:
   * apologize and listen again; only repeated failures end it.
   */
  replyFailed(handle: SpeechHandle, error: unknown): void {
    this.replyFailures += 1;
    if (this.replyFailures >= MAX_REPLY_FAILURES || this.ctx.state.isEnding) return this.fail('llm', error);
    this.ctx.log.log('warn', 'reply failed', describeError(error));
    this.timeline.vendorError('llm', error, false);
    // runReply has already waited for the failed handle to settle: what it played stays in the transcript.
    if (this.ctx.current() !== handle || handle.interrupted) return;
    this.ctx.say(this.lines.apologyPhrase);
  }
}
