import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import { InterruptionPolicy, type AgentActivity, type InterruptionAction, type InterruptionSettings } from './interruption.js';
import { loadFvad, VoiceActivity } from './vad.js';

/** What the floor asks of the session: the agent's state, and the three things it may do to its audio. */
export interface FloorHooks {
  activity(): AgentActivity;
  pause(): void;
  resume(): void;
  /** Abort the current utterance; `atMs` is when the caller's interrupting speech was confirmed. */
  interrupt(atMs: number): void;
  /** Words said over the agent that did not take the floor: kept, to be answered once it has finished. */
  keep(text: string, atMs: number): void;
  /** The call's logger (its id and workspace on every line). */
  readonly log?: Logger;
}

/**
 * Who has the floor: the caller's local VAD and the recognizer's words, run through the
 * {@link InterruptionPolicy}, turned into pauses, resumes and interruptions of the agent, plus the
 * false-interruption timer. The session hands it caller audio as 16-bit PCM with its rate (whatever the
 * transport's wire format) and the turn detector's text.
 */
export class CallerFloor {
  readonly policy: InterruptionPolicy;
  private vad: VoiceActivity | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Counts for the pipeline figures: pauses, resumes after a false interruption, interruptions. */
  readonly counts = { pauses: 0, resumes: 0, interruptions: 0 };
  /** performance.now() of each resume, paired with the speech end before it, for the resume-gap figure. */
  readonly resumes: { speechEndAtMs: number; resumedAtMs: number }[] = [];
  private lastSpeechEndAtMs = 0;

  constructor(
    settings: InterruptionSettings,
    private readonly sampleRate: 8_000 | 16_000,
    private readonly hooks: FloorHooks,
    /** The WASM VAD; a load failure leaves word-based interruption only (logged, never fatal). */
    vadModule = loadFvad(),
  ) {
    this.policy = new InterruptionPolicy(settings);
    vadModule.then(
      (mod) => {
        if (!this.closed) this.vad = new VoiceActivity(mod, this.sampleRate);
      },
      (error: unknown) => (hooks.log ?? loggerWith({})).log('warn', 'local VAD unavailable', describeError(error)),
    );
  }

  /** Whether the local VAD has loaded (until then, and without it, only the recognizer's words count). */
  get hasVad(): boolean {
    return this.vad !== undefined;
  }

  /** Caller audio, 16-bit PCM at the floor's sample rate, received at `atMs`. */
  onAudio(pcm: Int16Array, atMs: number): void {
    const vad = this.vad;
    if (!vad) return;
    for (const event of vad.push(pcm)) {
      if (event.type === 'speech_start') this.apply(this.policy.onSpeechStart(this.hooks.activity()), atMs);
      else {
        this.lastSpeechEndAtMs = atMs;
        this.apply(this.policy.onSpeechEnd(event.speechMs, this.hooks.activity()), atMs);
      }
    }
    if (vad.inSpeech) this.apply(this.policy.onSpeechProgress(vad.speechMs, this.hooks.activity()), atMs);
  }

  /** The caller's unfinished turn as the recognizer has it now. */
  onTranscript(turnText: string, atMs: number): void {
    this.apply(this.policy.onTranscript(turnText, this.hooks.activity()), atMs);
  }

  /**
   * The recognizer closed a turn; false when it was feedback over the agent and is not answered now. A
   * caller's words are never thrown away: feedback with a real word in it ("Tuesday", a group of digits) is
   * kept ({@link FloorHooks.keep}); only backchannels are dropped.
   */
  onTurnEnd(text: string, atMs: number): boolean {
    const { answer, actions } = this.policy.onTurnEnd(text, this.hooks.activity());
    this.apply(actions, atMs);
    if (!answer && this.policy.realWords(text) > 0) this.hooks.keep(text, atMs);
    return answer;
  }

  /** The agent's utterance was interrupted or finished: no pause is pending any more. */
  onUtteranceGone(): void {
    this.apply(this.policy.onUtteranceGone(), performance.now());
  }

  close(): void {
    this.closed = true;
    this.stopTimer();
    this.vad?.free();
    this.vad = undefined;
  }

  private apply(actions: readonly InterruptionAction[], atMs: number): void {
    for (const action of actions) {
      switch (action.type) {
        case 'pause':
          this.counts.pauses += 1;
          this.hooks.pause();
          break;
        case 'resume':
          this.counts.resumes += 1;
          this.resumes.push({ speechEndAtMs: this.lastSpeechEndAtMs, resumedAtMs: performance.now() });
          this.hooks.resume();
          break;
        case 'interrupt':
          this.counts.interruptions += 1;
          this.hooks.interrupt(atMs);
          break;
        case 'arm_timer':
          this.stopTimer();
          if (this.closed) break;
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.apply(this.policy.onTimeout(), performance.now());
          }, action.ms);
          this.timer.unref?.();
          break;
        case 'cancel_timer':
          this.stopTimer();
          break;
      }
    }
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
