import { mulawToPcm } from '../../vendors/shared/mulaw.js';
import type { HeardUtterance, SttScript } from './stt-engine.js';

/**
 * What the simulated people on the line said, shared by the stand-ins that play them (the Twilio stand-in's
 * callee) and the speech-to-text stand-ins that hear them: a recognizer for exactly the audio it was
 * told about. The callee registers each line's text with the audio it is about to send; a recognizer that
 * detects speech looks up the samples it just heard and, when they are part of a registered line, returns
 * that line's text. Nothing travels beside the audio: the match is on the samples themselves, so the line
 * is recognized only when its audio really reached the recognizer (after the streaming service passed it
 * on unchanged, as it does for mu-law phone audio).
 */

/** One line a simulated person is saying, as 16-bit linear samples at 8 kHz. */
interface SpokenLine {
  readonly text: string;
  /** The language it is spoken in (ISO 639-1), when the speaker said. */
  readonly language?: string;
  readonly samples: Buffer;
  readonly startedAt: number;
  readonly expiresAt: number;
  claimed: boolean;
}

/** How much audio to match: 20 ms at 8 kHz, one analysis frame of the recognizers' VAD. */
const MATCH_SAMPLES = 160;
/**
 * A line stays recognizable this long after its audio has been sent: the stream to the recognizer may
 * lag the phone line by a moment on a loaded machine, and a line that is never heard must not stay forever.
 */
const LINGER_MS = 15_000;

export class SpokenLines {
  private lines: SpokenLine[] = [];

  /**
   * Registers `text` as said with `mulaw` (8 kHz phone audio) from now on ('' for a sound with no words in
   * it, such as a beep), in `language` (ISO 639-1) when given.
   */
  say(text: string, mulaw: Uint8Array, language?: string): void {
    const now = Date.now();
    this.prune(now);
    const pcm = mulawToPcm(mulaw);
    const line: SpokenLine = {
      text,
      ...(language ? { language } : {}),
      samples: Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength),
      startedAt: now,
      expiresAt: now + pcm.length / 8 + LINGER_MS,
      claimed: false,
    };
    this.lines.push(line);
  }

  /**
   * The text of the registered line whose audio contains the last 20 ms of `recent` (16-bit samples at
   * 8 kHz, ending where the recognizer declared speech), or undefined. The first time a line is
   * recognized it answers its text; speech detected again later inside the same line (the recognizer
   * ended the turn at a pause within it) answers '' so the line is transcribed once, as the person said it.
   * A line registered with its language answers its text with that language.
   */
  recognize(recent: Int16Array): string | HeardUtterance | undefined {
    if (recent.length < MATCH_SAMPLES) return undefined;
    const now = Date.now();
    this.prune(now);
    const tail = recent.subarray(recent.length - MATCH_SAMPLES);
    const needle = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
    let best: { line: SpokenLine; misfit: number } | undefined;
    for (const line of this.lines) {
      // Two lines can share audio (the same first word), and a line can repeat itself (a held vowel): the
      // place whose position fits the time since the line started playing is the one being heard, and an
      // unclaimed line before a claimed one.
      for (const at of evenIndexesOf(line.samples, needle)) {
        const misfit = Math.abs(now - line.startedAt - at / 16) + (line.claimed ? 60_000 : 0);
        if (!best || misfit < best.misfit) best = { line, misfit };
      }
    }
    if (!best) return undefined;
    if (best.line.claimed) return '';
    best.line.claimed = true;
    return best.line.language ? { text: best.line.text, language: best.line.language } : best.line.text;
  }

  private prune(now: number): void {
    if (this.lines.some((l) => l.expiresAt <= now)) this.lines = this.lines.filter((l) => l.expiresAt > now);
  }
}

/** Every byte offset of `needle` in `haystack` that is a whole sample (even). */
function* evenIndexesOf(haystack: Buffer, needle: Buffer): Generator<number> {
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) if (at % 2 === 0) yield at;
}

/**
 * A recognizer script's `transcripts` that answers the registered line for phone audio it knows and
 * `otherwise` for any other speech (a test's caller, a browser microphone).
 */
export function knownLinesOr(lines: SpokenLines, otherwise: SttScript['transcripts']): SttScript['transcripts'] {
  return (ctx) => (ctx.audio && ctx.sampleRate === 8_000 ? lines.recognize(ctx.audio) : undefined) ?? otherwise(ctx);
}
