import type { Frame } from '../frames.js';

/**
 * Decides, from STT events alone, when the caller's turn ends. Pure: no timers, no I/O; the session feeds
 * it frames and acts on what it returns. Whether caller speech interrupts the agent is not decided here but
 * by the caller's floor (floor.ts: voice activity, words, backchannels).
 *
 * End of turn: the vendor's endpointing (`speechFinal`) after at least one word, or `utterance_end` as the
 * fallback when noise keeps endpointing from firing (Deepgram's documented pairing). The turn's text is the
 * final segments in order, plus the last interim text when the fallback fires before a final came.
 */
export interface TurnDecision {
  readonly type: 'turn_end';
  readonly text: string;
  readonly via: 'speech_final' | 'utterance_end';
  /** When the event that ended the turn was received (performance.now()). */
  readonly atMs: number;
}

export class TurnDetector {
  private finals: string[] = [];
  private interim = '';

  /** What the caller has said in the current, unfinished turn. */
  get pendingText(): string {
    return [...this.finals, this.interim].filter((s) => s.trim() !== '').join(' ').trim();
  }

  /** Feeds one frame; frames other than transcripts and utterance ends are ignored. */
  onFrame(frame: Frame): TurnDecision[] {
    const out: TurnDecision[] = [];
    switch (frame.kind) {
      case 'transcript': {
        const text = frame.text.trim();
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
