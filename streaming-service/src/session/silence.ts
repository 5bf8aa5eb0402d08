import type { SilenceConfig } from '../../../lib/domain/agent.js';

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

export function silenceSettings(config: SilenceConfig = {}): SilenceSettings {
  return {
    repromptAfterMs: config.reprompt_after_ms ?? DEFAULT_SILENCE.repromptAfterMs,
    maxReprompts: config.max_reprompts ?? DEFAULT_SILENCE.maxReprompts,
    repromptMessage: config.reprompt_message ?? DEFAULT_SILENCE.repromptMessage,
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
