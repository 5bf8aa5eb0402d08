import { sayLine, type LineContext, type SaidLine } from '../lines.js';
import type { WaitingPhrases } from '../reply.js';
import type { SpeechHandle } from '../speech-handle.js';

/** What a realtime call's filler needs of the session: a fixed line's context, the waiting phrases, barge-in. */
export interface FillerHost extends LineContext {
  readonly waiting: WaitingPhrases;
  current(): SpeechHandle | undefined;
  interrupt(atMs: number): void;
}

/**
 * The filler of a realtime call (docs/realtime.md, "The call"): a tool still running after the cascade's
 * filler delay, with nothing of the model's audio playing or queued, gets one of the agent's filler phrases
 * (the cascade's `WaitingPhrases`, per language) said as a fixed line through the call's warm TTS, so the
 * output, the recording, live listen and history treat it like any utterance. It is cut when the caller
 * speaks or when the model's next response starts (the tool's result went back), never played over the model.
 */
export class RealtimeFiller {
  private said: SaidLine | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: FillerHost,
    /** True while the model is quiet: no response of its in progress and none of its audio playing or queued. */
    private readonly modelQuiet: () => boolean,
  ) {}

  /** A round of tool calls starts; returns what ends it (a tool that answered in time gets no filler). */
  toolsStart(): () => void {
    clearTimeout(this.timer);
    const timer = (this.timer = setTimeout(() => this.say(), this.host.waiting.options.fillerAfterMs));
    return () => clearTimeout(timer);
  }

  /** The caller spoke, or the model's answer starts: a filler still playing stops where it is, and none follows. */
  cut(): void {
    clearTimeout(this.timer);
    const handle = this.said?.handle;
    this.said = undefined;
    if (handle && !handle.settled && this.host.current() === handle) this.host.interrupt(performance.now());
  }

  private say(): void {
    const { state } = this.host;
    if (state.isEnding || state.state === 'transferring' || !this.modelQuiet()) return;
    const text = this.host.waiting.next('filler');
    if (text) this.said = sayLine(this.host, text);
  }
}
