import { mulawToPcm } from '../../vendors/shared/mulaw.js';
import { decodeToPcm } from '../../vendors/shared/pcm.js';
import type { AudioFormat } from '../../vendors/shared/audio-format.js';
import type { HeardUtterance, SttScript } from './stt-engine.js';

/**
 * What the simulated people on the line said, shared by the stand-ins that play them (the Twilio stand-in's
 * callee) and the speech-to-text stand-ins that hear them: a recognizer for exactly the audio it was
 * told about. The callee registers each line's text with the audio it is about to send; a recognizer that
 * detects speech looks up the samples it just heard and, when they are part of a registered line, returns
 * that line's text. Nothing travels beside the audio: the match is on the samples themselves, so the line
 * is recognized only when its audio really reached the recognizer (after the streaming service passed it
 * on unchanged, as it does for mu-law phone audio and the browser's 16 kHz PCM). The TTS stand-ins register
 * what they synthesize too (tts-audio.ts), so a caller our own TTS speaks (a voice agent test,
 * docs/agent-tests.md) is heard as the text it was given. Background noise mixed into a line's audio after
 * it was registered is tolerated: a line whose samples lie within the noise of the heard ones matches.
 */

/** One line a simulated person is saying, as 16-bit linear samples at its rate. */
interface SpokenLine {
  readonly text: string;
  readonly sampleRate: number;
  /** The language it is spoken in (ISO 639-1), when the speaker said. */
  readonly language?: string;
  readonly samples: Buffer;
  readonly startedAt: number;
  readonly expiresAt: number;
  /** The stream that transcribed it, when it heard it, and where in the line (ms). */
  claim?: { readonly by: object | undefined; readonly atMs: number; readonly posMs: number };
}

/** How much audio to match: 20 ms, one analysis frame of the recognizers' VAD. */
const MATCH_MS = 20;
/**
 * A noisy match: the heard 20 ms less the line's samples keeps at most this share of the heard energy
 * (-10 dB): background noise under speech (at most -45 dBFS in a voice test, against speech at -20 dBFS)
 * leaves a hundredth of it, any other place in any line about twice it.
 */
const NOISY_RESIDUE = 0.1;
/**
 * A line stays recognizable this long after its audio has been sent: the stream to the recognizer may
 * lag the phone line by a moment on a loaded machine, and a line that is never heard must not stay forever.
 */
const LINGER_MS = 15_000;
/**
 * Speech detected again by a stream that transcribed a line with the same audio is further on in that line
 * when it lies at least this far past where the stream first heard it...
 */
const ONWARD_MIN_MS = 100;
/**
 * ...and as far on as the time since (within this much: two pieces of one stream's audio reach its
 * recognizer with the same delay, give or take a loaded machine's stalls). A person saying the line again
 * starts it from the top, seconds later.
 */
const ONWARD_SLACK_MS = 1_500;

export class SpokenLines {
  private lines: SpokenLine[] = [];

  /**
   * Registers `text` as said with `mulaw` (8 kHz phone audio) from now on ('' for a sound with no words in
   * it, such as a beep), in `language` (ISO 639-1) when given.
   */
  say(text: string, mulaw: Uint8Array, language?: string): void {
    this.sayPcm(text, mulawToPcm(mulaw), 8_000, language);
  }

  /** Registers `text` as said with `audio` in `format` (what a TTS stand-in just synthesized). */
  sayAudio(text: string, audio: Uint8Array, format: AudioFormat, language?: string): void {
    if (text.trim() === '' || audio.length < 2) return;
    this.sayPcm(text, decodeToPcm(format.encoding === 'mulaw' ? audio : audio.subarray(0, audio.length - (audio.length % 2)), format), format.sampleRate, language);
  }

  private sayPcm(text: string, pcm: Int16Array, sampleRate: number, language?: string): void {
    const now = Date.now();
    this.prune(now);
    const line: SpokenLine = {
      text,
      sampleRate,
      ...(language ? { language } : {}),
      samples: Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength),
      startedAt: now,
      expiresAt: now + (pcm.length * 1_000) / sampleRate + LINGER_MS,
    };
    this.lines.push(line);
  }

  /**
   * The text of the registered line whose audio contains the last 20 ms of `recent` (16-bit samples at
   * `sampleRate`, ending where the recognizer declared speech), or undefined: the exact samples, else the
   * samples under background noise. The first time a line is recognized it answers its text; speech that
   * `stream` (the recognizer's stream) detects again further on in a line it transcribed (it ended the turn
   * at a pause within it) answers '' so the line is transcribed once, as the person said it. Simulated
   * people on calls at the same time say the same line with the same samples: which of their lines a stream
   * claims does not matter, but a stream hearing more of its own line must not take another call's. A line
   * registered with its language answers its text with that language. Without `stream`, a line already
   * claimed answers '' only where no unclaimed line fits as well.
   */
  recognize(recent: Int16Array, sampleRate = 8_000, stream?: object): string | HeardUtterance | undefined {
    const matchSamples = (sampleRate * MATCH_MS) / 1_000;
    if (recent.length < matchSamples) return undefined;
    const now = Date.now();
    this.prune(now);
    const tail = recent.subarray(recent.length - matchSamples);
    const needle = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
    const bytesPerMs = (2 * sampleRate) / 1_000;
    const lines = this.lines.filter((l) => l.sampleRate === sampleRate);
    let places = lines.flatMap((line) => [...evenIndexesOf(line.samples, needle)].map((at) => ({ line, posMs: at / bytesPerMs })));
    if (places.length === 0) places = lines.flatMap((line) => [...noisyIndexesOf(line.samples, tail)].map((at) => ({ line, posMs: at / bytesPerMs })));
    const onward = stream !== undefined && places.some(({ line, posMs }) => {
      const claim = line.claim;
      if (!claim || claim.by !== stream) return false;
      const further = posMs - claim.posMs;
      return further >= ONWARD_MIN_MS && Math.abs(now - claim.atMs - further) <= ONWARD_SLACK_MS;
    });
    if (onward) return '';
    // Two lines can share audio (the same first word), and a line can repeat itself (a held vowel): the
    // place whose position fits the time since the line started playing is the one being heard, and an
    // unclaimed line before a claimed one.
    let best: { line: SpokenLine; posMs: number; misfit: number } | undefined;
    for (const { line, posMs } of places) {
      const misfit = Math.abs(now - line.startedAt - posMs) + (line.claim ? 60_000 : 0);
      if (!best || misfit < best.misfit) best = { line, posMs, misfit };
    }
    if (!best) return undefined;
    if (best.line.claim) return '';
    best.line.claim = { by: stream, atMs: now, posMs: best.posMs };
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
 * Every byte offset in `haystack` (16-bit samples) where `needle` lies within background noise: the
 * residue (needle less the samples there) keeps at most {@link NOISY_RESIDUE} of the needle's energy. The
 * needle's loudest samples are compared first, so a wrong place is given up after a few samples.
 */
function* noisyIndexesOf(haystack: Buffer, needle: Int16Array): Generator<number> {
  const n = needle.length;
  let energy = 0;
  for (const v of needle) energy += v * v;
  // Silence under noise matches any quiet stretch: only speech is recognized.
  if (energy / n < 300 * 300) return;
  const bound = energy * NOISY_RESIDUE;
  const order = [...needle.keys()].sort((a, b) => Math.abs(needle[b]!) - Math.abs(needle[a]!));
  const hay = new Int16Array(haystack.buffer, haystack.byteOffset, Math.floor(haystack.byteLength / 2));
  for (let at = 0; at + n <= hay.length; at += 1) {
    let residue = 0;
    for (let k = 0; k < n && residue <= bound; k += 1) {
      const i = order[k]!;
      const d = hay[at + i]! - needle[i]!;
      residue += d * d;
    }
    if (residue <= bound) yield at * 2;
  }
}

/**
 * A recognizer script's `transcripts` that answers the registered line for audio it knows (a phone
 * callee's, a caller our TTS spoke) and `otherwise` for any other speech (a test's caller, a microphone).
 */
export function knownLinesOr(lines: SpokenLines, otherwise: SttScript['transcripts']): SttScript['transcripts'] {
  return (ctx) => (ctx.audio && ctx.sampleRate ? lines.recognize(ctx.audio, ctx.sampleRate, ctx.stream) : undefined) ?? otherwise(ctx);
}
