import type { SilenceConfig } from '../../../lib/domain/agent.js';
import type { CallControl } from './action-context.js';

/**
 * What to do about a quiet line: re-prompt the caller ("Are you still there?") after `repromptAfterMs` of
 * silence, up to `maxReprompts` times, then end the call as `silence_timeout`. Pure: the session asks it on
 * its silence tick with how long the line has been quiet (agent idle and caller silent), and tells it when
 * the caller spoke.
 */
export interface SilenceSettings {
  readonly repromptAfterMs: number;
  /** 0: never re-prompt; only the session's overall silence timeout ends the call. */
  readonly maxReprompts: number;
  readonly repromptMessage: string;
}

/**
 * 10 s: longer than anyone thinks in silence on a phone line, short enough that a caller who put the phone
 * down is asked before they hang up. Two re-prompts, then the call ends ~30 s after the caller went quiet,
 * the figure Vapi and Retell use for their silence timeouts.
 */
export const DEFAULT_SILENCE: SilenceSettings = { repromptAfterMs: 10_000, maxReprompts: 2, repromptMessage: 'Are you still there?' };

/** The agent's `silence` over the defaults; `repromptMessage` is the call's language's when the agent sets none. */
export function silenceSettings(config: SilenceConfig = {}, repromptMessage: string = DEFAULT_SILENCE.repromptMessage): SilenceSettings {
  return {
    repromptAfterMs: config.reprompt_after_ms ?? DEFAULT_SILENCE.repromptAfterMs,
    maxReprompts: config.max_reprompts ?? DEFAULT_SILENCE.maxReprompts,
    repromptMessage: config.reprompt_message ?? repromptMessage,
  };
}

export class SilenceWatch {
  private reprompts = 0;

  constructor(
    readonly settings: SilenceSettings,
    /** The session's overall bound: the call ends after this much silence whatever the re-prompts. */
    private readonly timeoutMs: number,
  ) {}

  /** How many re-prompts were said since the caller last spoke. */
  get count(): number {
    return this.reprompts;
  }

  /** The decision after `quietMs` of silence on the line. */
  check(quietMs: number): 'reprompt' | 'end' | undefined {
    if (quietMs >= this.timeoutMs) return 'end';
    const { repromptAfterMs, maxReprompts } = this.settings;
    if (maxReprompts === 0 || quietMs < repromptAfterMs) return undefined;
    if (this.reprompts < maxReprompts) {
      this.reprompts += 1;
      return 'reprompt';
    }
    return 'end';
  }

  /** The caller said something: the next silence starts the re-prompts over. */
  onCallerSpoke(): void {
    this.reprompts = 0;
  }
}

/**
 * A call's silence clock: the time since anyone was heard, checked every second against the agent's
 * re-prompts and the call's silence timeout ({@link SilenceWatch} decides).
 */
export class QuietLine {
  private lastActivityMs = performance.now();
  private timer: NodeJS.Timeout | undefined;

  private closing = false;

  constructor(
    private readonly watch: SilenceWatch,
    private readonly ctx: Pick<CallControl, 'state' | 'current' | 'say' | 'end'>,
    private readonly timeoutMs: number,
    /** The line said before a silence hang-up (the call's goodbye, in its language); empty: none. */
    private readonly goodbye: () => string = () => '',
  ) {}

  start(): void {
    // Checked every second: a re-prompt a second late is not noticed; one timer a second per call is cheap.
    this.timer = setInterval(() => this.check(), Math.min(1_000, this.timeoutMs));
    this.timer.unref?.();
  }

  /** Voiced caller audio at `atMs`. */
  heard(atMs: number): void {
    this.lastActivityMs = atMs;
  }

  /** The caller took a turn: the next silence starts the re-prompts over. */
  onCallerSpoke(): void {
    this.watch.onCallerSpoke();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The caller is gone: a goodbye, never a bare click, then the call ends as `silence_timeout`. */
  private hangUp(): void {
    if (this.closing) return;
    this.closing = true;
    this.close();
    const text = this.goodbye().trim();
    const said = text ? this.ctx.say(text).done.catch(() => undefined) : Promise.resolve();
    void said.then(() => this.ctx.end('silence_timeout'));
  }

  private check(): void {
    const now = performance.now();
    // The line is not quiet while the agent speaks, and only a line waiting for the caller can be quiet.
    const speaking = this.ctx.current();
    if (speaking && !speaking.settled) this.lastActivityMs = now;
    if (this.ctx.state.state !== 'listening') return;
    const decision = this.watch.check(now - this.lastActivityMs);
    if (decision === 'end') this.hangUp();
    else if (decision === 'reprompt') {
      this.lastActivityMs = now;
      this.ctx.say(this.watch.settings.repromptMessage);
    }
  }
}
