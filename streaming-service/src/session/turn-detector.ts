import type { Frame } from '../frames.js';

/**
 * Decides, from STT events alone, when the caller's turn ends and when the caller is talking over the
 * agent. Pure: no timers, no I/O; the session feeds it frames and acts on what it returns.
 *
 * End of turn: the vendor's endpointing (`speechFinal`) after at least one word, or `utterance_end` as the
 * fallback when noise keeps endpointing from firing (Deepgram's documented pairing). The turn's text is the
 * final segments in order, plus the last interim text when the fallback fires before a final came.
 */
export type TurnDecision =
  | {
      readonly type: 'turn_end';
      readonly text: string;
      readonly via: 'speech_final' | 'utterance_end';
      /** When the event that ended the turn was received (performance.now()). */
      readonly atMs: number;
    }
  | { readonly type: 'barge_in'; readonly cause: 'speech_started' | 'interim_transcript'; readonly atMs: number };

export interface TurnDetectorOptions {
  /**
   * Words an interim transcript needs before it counts as the caller talking over the agent. One word is
   * the fastest reaction; raise it where backchannels ("mm-hm") should not interrupt.
   */
  readonly minInterruptWords: number;
  /** Whether the vendor's `speech_started` alone interrupts (fastest, but coughs count too). */
  readonly interruptOnSpeechStarted: boolean;
}

export const DEFAULT_TURN_OPTIONS = { minInterruptWords: 1, interruptOnSpeechStarted: true } as const satisfies TurnDetectorOptions;

const wordCount = (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);

export class TurnDetector {
  private finals: string[] = [];
  private interim = '';
  private readonly options: TurnDetectorOptions;

  constructor(options: Partial<TurnDetectorOptions> = {}) {
    this.options = { ...DEFAULT_TURN_OPTIONS, ...options };
  }

  /** What the caller has said in the current, unfinished turn. */
  get pendingText(): string {
    return [...this.finals, this.interim].filter((s) => s.trim() !== '').join(' ').trim();
  }

  /**
   * Feeds one frame; `agentSpeaking` says whether an agent utterance is in progress (which caller speech
   * would interrupt). Frames other than STT ones are ignored.
   */
  onFrame(frame: Frame, agentSpeaking: boolean): TurnDecision[] {
    const out: TurnDecision[] = [];
    switch (frame.kind) {
      case 'speech_started':
        if (agentSpeaking && this.options.interruptOnSpeechStarted) {
          out.push({ type: 'barge_in', cause: 'speech_started', atMs: frame.atMs });
        }
        break;
      case 'transcript': {
        const text = frame.text.trim();
        if (agentSpeaking && wordCount(text) >= this.options.minInterruptWords) {
          out.push({ type: 'barge_in', cause: 'interim_transcript', atMs: frame.atMs });
        }
        if (frame.isFinal) {
          if (text) this.finals.push(text);
          this.interim = '';
        } else {
          this.interim = text;
        }
        if (frame.speechFinal) {
          const turn = this.take();
          if (turn) out.push({ type: 'turn_end', text: turn, via: 'speech_final', atMs: frame.atMs });
        }
        break;
      }
      case 'utterance_end': {
        const turn = this.take();
        if (turn) out.push({ type: 'turn_end', text: turn, via: 'utterance_end', atMs: frame.atMs });
        break;
      }
      default:
        break;
    }
    return out;
  }

  /**
   * Puts words of a turn that was held back (end-of-turn.ts: it looked unfinished and the caller went on)
   * in front of the current turn, so the next turn end carries the whole sentence.
   */
  restore(text: string): void {
    if (text.trim()) this.finals.unshift(text.trim());
  }

  private take(): string | undefined {
    const text = this.pendingText;
    this.finals = [];
    this.interim = '';
    return text || undefined;
  }
}
