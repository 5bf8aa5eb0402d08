import { describeError, loggerWith, type Logger } from '../../../lib/observability/log.js';
import type { TtsSession, TtsUtterance, TtsWordTiming } from '../../../lib/vendors/tts/port.js';
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
 * Speaks a handle's phrases in order through one warm TTS session, each phrase's audio followed by its own
 * mark, synthesized while earlier audio plays. A session that reports phrase ends (Deepgram:
 * `TtsSession.phraseEnds`) gets one utterance for the whole turn, phrases streamed into it as they come
 * (one context, one flush budget per turn, as the vendor asks); any other gets one utterance per phrase.
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

  private nextPhrase(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
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
          await this.nextPhrase();
          continue;
        }
        if (this.tts.phraseEnds) {
          this.pending.unshift(phrase);
          await this.speakTurn();
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

  /**
   * The rest of the turn through one utterance. When its socket drops, the phrases whose audio is not all
   * queued are sent again on the reopened socket, skipping the audio already queued (as {@link speak}); a
   * second failure moves to the fallback voice, which says them again whole (through this same path when
   * it reports phrase ends, else phrase by phrase).
   */
  private async speakTurn(): Promise<void> {
    const { signal } = this.handle;
    /** Phrases in the utterance whose audio is not all queued, oldest first. */
    const undone: Phrase[] = [];
    let failures = 0;
    for (;;) {
      try {
        await this.turnAttempt(undone, failures === 1 ? (undone[0]?.audioBytes ?? 0) : 0);
        return;
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        if (failures === 1) {
          this.retries += 1;
          this.log.log('warn', 'tts utterance lost; retrying its unspoken rest', { phrase: undone[0]?.markName, queuedBytes: undone[0]?.audioBytes, ...describeError(error) });
          continue;
        }
        const next = await this.fallback(this.tts);
        if (!next) throw error;
        this.tts = next;
        if (!next.phraseEnds) {
          this.pending.unshift(...undone);
          return;
        }
      }
    }
  }

  /**
   * One utterance: `undone` sent again first, then phrases as they come; rejects when the vendor fails it.
   * A session whose contexts expire when idle (`TtsSession.contextIdleMs`, Cartesia) gets the utterance
   * ended when the next phrase comes after all audio was in for that long: the phrase starts the next one.
   */
  private async turnAttempt(undone: Phrase[], skipBytes: number): Promise<void> {
    const { signal } = this.handle;
    const utterance = this.tts.utterance(undone[0]?.markName ?? this.pending[0]?.markName ?? this.handle.id, this.handle.language);
    const cancel = () => utterance.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    const idleMs = this.tts.contextIdleMs;
    let over = false;
    let skip = skipBytes;
    let done = 0;
    /** Since when every phrase pushed has all its audio (performance.now()), while none is outstanding. */
    let quietSince: number | undefined;
    const words = new TurnWords(this.handle.audioBytesPerMs);
    /** The last phrase done: audio the vendor sends past its reckoned end is its tail, not dropped. */
    let last: Phrase | undefined;
    for (const phrase of undone) this.push(utterance, phrase);
    const feeding = (async () => {
      while (!signal.aborted && !over) {
        const phrase = this.pending.shift();
        if (phrase) {
          if (idleMs !== undefined && quietSince !== undefined && performance.now() - quietSince > idleMs) {
            // The vendor has let the context go (or is about to): end it, and speak the phrase in a new one.
            this.pending.unshift(phrase);
            utterance.end();
            return;
          }
          quietSince = undefined;
          this.push(utterance, phrase);
          undone.push(phrase);
        } else if (this.ended) {
          utterance.end();
          return;
        } else {
          await this.nextPhrase();
        }
      }
    })();
    try {
      for await (const chunk of utterance.audio) {
        if (signal.aborted) return;
        const current = undone[0] ?? last;
        if (current) words.add(current, chunk.words);
        if (chunk.audio.length > 0 && current) {
          this.timings.firstByteAtMs ??= chunk.atMs;
          words.received(chunk.audio.length);
          const audio = skip > 0 ? chunk.audio.subarray(Math.min(skip, chunk.audio.length)) : chunk.audio;
          skip = Math.max(0, skip - chunk.audio.length);
          if (audio.length > 0) {
            current.audioBytes += audio.length;
            this.out.enqueueAudio(this.handle.id, audio);
          }
        }
        const complete = Math.min(undone.length, (chunk.phrasesDone ?? 0) - done);
        if (complete > 0) {
          last = undone[complete - 1];
          this.finishPhrases(undone.splice(0, complete));
          done += complete;
          words.phraseEnded();
          if (undone.length === 0) quietSince = performance.now();
        }
      }
      if (signal.aborted) return;
      // The utterance ended: all its audio is here.
      this.finishPhrases(undone.splice(0));
    } finally {
      over = true;
      this.poke();
      await feeding;
      signal.removeEventListener('abort', cancel);
    }
  }

  private push(utterance: TtsUtterance, phrase: Phrase): void {
    this.timings.firstPhraseAtMs ??= performance.now();
    utterance.pushText(`${phrase.text} `);
    utterance.flush();
    this.onPhrase();
  }

  /**
   * Phrases whose audio is all queued, each followed by its mark. Phrases that completed together (one
   * vendor flush) had their audio counted on the first: it is shared out by their length, so a barge-in
   * places its cut in the right phrase (SpeechHandle.placeCut).
   */
  private finishPhrases(phrases: readonly Phrase[]): void {
    if (this.handle.signal.aborted || phrases.length === 0) return;
    const bytes = phrases.reduce((n, p) => n + p.audioBytes, 0);
    const chars = phrases.reduce((n, p) => n + p.text.length, 0);
    let left = bytes;
    phrases.forEach((p, i) => {
      p.audioBytes = i === phrases.length - 1 ? left : Math.round((bytes * p.text.length) / Math.max(1, chars));
      left -= p.audioBytes;
    });
    for (const phrase of phrases) {
      this.handle.markSent(phrase);
      this.out.enqueueMark(this.handle.id, phrase.markName);
    }
  }

  /** Synthesizes `phrase` and queues its audio, less the first `skipBytes` (already queued). */
  private async synthesize(phrase: Phrase, skipBytes: number): Promise<void> {
    const { signal } = this.handle;
    const utterance = this.tts.utterance(phrase.markName, this.handle.language);
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

/**
 * Word timing of one turn's utterance, given from the utterance's audio start (ElevenLabs, Cartesia), kept
 * per phrase from each phrase's own audio start, as the phrase-per-utterance path keeps it. A word belongs
 * to the last phrase whose audio began at or before it; a late timing message (Cartesia sends them apart
 * from the audio) still finds its phrase.
 */
class TurnWords {
  /** Phrases of the utterance with where their audio starts (ms) and their first word's vendor index. */
  private readonly starts: { phrase: Phrase; startMs: number; firstIndex?: number }[] = [];
  private bytes = 0;
  private nextStartMs = 0;

  constructor(private readonly bytesPerMs: number) {}

  /** `current` is the phrase taking audio now; `words` any timing the chunk carries. */
  add(current: Phrase, words: readonly TtsWordTiming[] | undefined): void {
    if (this.starts.at(-1)?.phrase !== current) this.starts.push({ phrase: current, startMs: this.nextStartMs });
    for (const w of words ?? []) {
      const at = this.starts.findLast((s) => s.startMs <= w.startMs) ?? this.starts[0]!;
      at.firstIndex ??= w.index;
      (at.phrase.wordEndsMs ??= [])[w.index - at.firstIndex] = w.endMs - at.startMs;
    }
  }

  /** Audio of the utterance received (skipped bytes included: the vendor's times count them). */
  received(bytes: number): void {
    this.bytes += bytes;
  }

  /** The phrase taking audio is done: the next one's audio starts here. */
  phraseEnded(): void {
    this.nextStartMs = this.bytes / this.bytesPerMs;
  }
}

/** The call's TTS link as a speaker needs it: its warm session and a replacement for a failed one. */
export interface SpeakerVoice {
  readonly session: Promise<TtsSession>;
  replace(failed: TtsSession): Promise<TtsSession | undefined>;
}

/**
 * A speaker for `handle` on the call's warm TTS session, or undefined when TTS is unavailable: `fail` is
 * told (the call then ends) and the handle produces nothing more.
 */
export async function speakerOn(voice: SpeakerVoice, handle: SpeechHandle, out: AudioOut, fail: (error: unknown) => void, onPhrase: () => void, log: Logger): Promise<Speaker | undefined> {
  try {
    const tts = await voice.session;
    return new Speaker(handle, tts, out, fail, (failed) => voice.replace(failed), onPhrase, log);
  } catch (error) {
    fail(error);
    handle.finishProducing();
    return undefined;
  }
}
