import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import type { TtsSession } from '../../../lib/vendors/tts/port.js';
import type { AudioOut } from './audio-out.js';
import type { Phrase, SpeechHandle } from './speech-handle.js';

/** Latency points of one utterance's first phrase (performance.now()). */
export interface SpeakerTimings {
  /** First phrase handed to TTS. */
  firstPhraseAtMs?: number;
  /** First audio byte back from TTS. */
  firstByteAtMs?: number;
}

/**
 * Speaks a handle's phrases in order through one warm TTS session: one TTS utterance per phrase (so each
 * phrase's audio is followed by its own mark), synthesized one after the other while earlier audio plays.
 * Everything stops when the handle's signal aborts: the current TTS utterance is cancelled at the vendor.
 */
export class Speaker {
  private readonly pending: Phrase[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  readonly timings: SpeakerTimings = {};
  /** Phrases synthesized again after the TTS socket dropped under them. */
  retries = 0;
  /** Resolves when every phrase has been synthesized and queued (or the handle was interrupted). */
  readonly done: Promise<void>;

  constructor(
    private readonly handle: SpeechHandle,
    private tts: TtsSession,
    private readonly out: AudioOut,
    private readonly onError: (error: unknown) => void,
    /** Another TTS session when `failed` stays down (the agent's fallback voice), if there is one. */
    private readonly fallback: (failed: TtsSession) => Promise<TtsSession | undefined> = async () => undefined,
    /** Called as each phrase goes to TTS (live captions). */
    private readonly onPhrase: () => void = () => undefined,
    /** The call's logger (its id and workspace on every line). */
    private readonly log: Logger = loggerWith({}),
  ) {
    this.done = this.run();
  }

  say(text: string, round: number): void {
    if (this.ended || this.handle.interrupted) return;
    this.pending.push(this.handle.addPhrase(text, round));
    this.poke();
  }

  /** No more phrases; the handle finishes producing once the queue drains. */
  end(): void {
    this.ended = true;
    this.poke();
  }

  private poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private async run(): Promise<void> {
    const { signal } = this.handle;
    const abort = () => this.poke();
    signal.addEventListener('abort', abort, { once: true });
    try {
      while (!signal.aborted) {
        const phrase = this.pending.shift();
        if (!phrase) {
          if (this.ended) break;
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          continue;
        }
        await this.speak(phrase);
      }
    } catch (error) {
      if (!signal.aborted) this.onError(error);
    } finally {
      signal.removeEventListener('abort', abort);
      this.handle.finishProducing();
    }
  }

  /**
   * One phrase, retried once when the TTS socket drops under it: the session's TTS adapter reopens its
   * socket by itself, and the retry skips the audio already queued, so the caller hears the rest of the
   * phrase and no word twice (a vendor's audio for the same text and voice is the same length give or take
   * a few milliseconds). A second failure is the vendor being down: the phrase is said again whole in the
   * agent's fallback voice (another voice's audio cannot be cut at the same byte), which speaks the rest of
   * the call; with no fallback left the error goes to `onError`.
   */
  private async speak(phrase: Phrase): Promise<void> {
    const { signal } = this.handle;
    try {
      await this.synthesize(phrase, 0);
    } catch (error) {
      if (signal.aborted) return;
      this.retries += 1;
      this.log.log('warn', 'tts utterance lost; retrying its unspoken rest', { phrase: phrase.markName, queuedBytes: phrase.audioBytes, ...describeError(error) });
      try {
        await this.synthesize(phrase, phrase.audioBytes);
      } catch (again) {
        if (signal.aborted) return;
        const next = await this.fallback(this.tts);
        if (!next) throw again;
        this.tts = next;
        await this.synthesize(phrase, 0);
      }
    }
    if (signal.aborted) return;
    this.handle.markSent(phrase);
    this.out.enqueueMark(this.handle.id, phrase.markName);
  }

  /** Synthesizes `phrase` and queues its audio, less the first `skipBytes` (already queued). */
  private async synthesize(phrase: Phrase, skipBytes: number): Promise<void> {
    const { signal } = this.handle;
    const utterance = this.tts.utterance(phrase.markName);
    const cancel = () => utterance.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    let skip = skipBytes;
    try {
      this.timings.firstPhraseAtMs ??= performance.now();
      // A trailing space tells word-buffering vendors (ElevenLabs) the last word is complete.
      utterance.pushText(`${phrase.text} `);
      utterance.flush();
      utterance.end();
      this.onPhrase();
      for await (const chunk of utterance.audio) {
        if (signal.aborted) break;
        // A chunk may carry word timing and no audio: the first byte is the first audio.
        if (chunk.audio.length > 0) this.timings.firstByteAtMs ??= chunk.atMs;
        // Word timing counts from the phrase's audio start whatever was skipped: the same audio, again.
        for (const w of chunk.words ?? []) (phrase.wordEndsMs ??= [])[w.index] = w.endMs;
        const audio = skip > 0 ? chunk.audio.subarray(Math.min(skip, chunk.audio.length)) : chunk.audio;
        skip = Math.max(0, skip - chunk.audio.length);
        if (audio.length === 0) continue;
        phrase.audioBytes += audio.length;
        this.out.enqueueAudio(this.handle.id, audio);
      }
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }
}
