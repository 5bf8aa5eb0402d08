import { describeError } from '../../../lib/observability/log.js';
import type { CallControl } from './action-context.js';
import type { SpeechHandle } from './speech-handle.js';

export interface FailureLines {
  /** Said when the model fails on a turn, so the caller is asked to repeat instead of being hung up on. */
  readonly apologyPhrase: string;
  /** Said before the call ends as `error` (the recognizer or the model stayed down). */
  readonly failurePhrase: string;
}

/** The failure apology gets this long to play; marks that never come back must not hold a broken call open. */
const FAILURE_PLAYOUT_CAP_MS = 10_000;

/** Replies the model may fail in a row: a third means it is down, not having a bad moment. */
const MAX_REPLY_FAILURES = 3;

/**
 * What a call does when a part of it fails after that part's own retries and fallbacks: a reply the model
 * failed costs an apology, repeated ones or a dead recognizer end the call, with the caller told first.
 */
export class FailurePolicy {
  private failing = false;
  /** Consecutive replies the model failed. */
  private replyFailures = 0;

  constructor(
    private readonly ctx: CallControl,
    private readonly lines: FailureLines,
  ) {}

  /** The call is on its way out after a failure: no new turn starts. */
  get isFailing(): boolean {
    return this.failing;
  }

  /**
   * A vendor failed mid-call after its retries: the call cannot go on without hearing or thinking. The
   * caller is told before the line goes dead (a silent hang-up sounds like a dropped call), unless speech
   * itself is what failed; the apology gets a bounded time to play.
   */
  fail(where: string, error: unknown): void {
    if (this.failing || this.ctx.isEnded()) return;
    this.failing = true;
    this.ctx.log.log('error', 'call failed', { where, ...describeError(error) });
    const { state } = this.ctx;
    // A call ending or being transferred has nobody left to apologize to.
    if (where === 'tts' || state.isEnding || state.state === 'transferring') return this.ctx.end('error');
    this.ctx.interrupt();
    const { handle } = this.ctx.say(this.lines.failurePhrase);
    setTimeout(() => this.ctx.end('error'), FAILURE_PLAYOUT_CAP_MS).unref?.();
    void handle.whenSettled().then(() => this.ctx.end('error'));
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
    // runReply has already waited for the failed handle to settle: what it played stays in the transcript.
    if (this.ctx.current() !== handle || handle.interrupted) return;
    this.ctx.say(this.lines.apologyPhrase);
  }
}
