import type { TTS_PROVIDERS } from '../../domain/agent.js';
import type { Pronunciation } from '../../domain/pronunciation.js';
import type { AudioFormat } from '../shared/audio-format.js';

export type TtsProviderId = (typeof TTS_PROVIDERS)[number];

export interface TtsOptions {
  readonly voiceId: string;
  /** Vendor model name; each adapter has a sensible default. */
  readonly model?: string;
  /**
   * The language to speak (ISO 639-1, `es`), where the vendor takes one: Cartesia's `language`, ElevenLabs'
   * `language_code`. Undefined: the vendor's default (Cartesia `en`) or, for ElevenLabs, the language of the
   * text (a `multi` call).
   */
  readonly language?: string;
  /** The audio wanted out, the call transport's format; default {@link PHONE_AUDIO} (mu-law 8 kHz). */
  readonly format?: AudioFormat;
  /**
   * The agent's pronunciations, applied to every phrase before it is sent, the vendor's way
   * (lib/vendors/tts/pronunciation.ts); the text the caller sees keeps the written words.
   */
  readonly pronunciations?: readonly Pronunciation[];
}

/** Audio out, raw, in the session's `format` (mono), in chunks of any size (whole samples). */
export interface TtsAudioChunk {
  readonly audio: Uint8Array;
  /** `performance.now()` at receipt. */
  readonly atMs: number;
  /**
   * Words whose timing the vendor has just given (ElevenLabs alignment, Cartesia timestamps), in ms from
   * the start of this utterance's audio; a chunk may carry words and no audio. Vendors without word timing
   * never set it.
   */
  readonly words?: readonly TtsWordTiming[];
  /**
   * Sessions with {@link TtsSession.phraseEnds}: how many of the utterance's flushed phrases (counted in
   * `flush` order, the end's leftover text last) have all their audio delivered by now. A chunk may carry
   * this and no audio.
   */
  readonly phrasesDone?: number;
}

/** One spoken word and when it plays, in ms from the start of its utterance's audio. */
export interface TtsWordTiming {
  /** 0-based position of the word in the utterance. */
  readonly index: number;
  readonly word: string;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * One agent utterance: text goes in phrase by phrase, audio comes out in order. Cancel stops synthesis
 * at the vendor (its context or request) and ends `audio` at once.
 */
export interface TtsUtterance {
  /** Adds text; the adapter may buffer until `flush`. */
  pushText(text: string): void;
  /** Ends a phrase: synthesize what is buffered now, do not wait for more text. */
  flush(): void;
  /** No more text will come; `audio` completes after the last chunk. */
  end(): void;
  cancel(): void;
  readonly audio: AsyncIterable<TtsAudioChunk>;
}

/** A connection to a TTS vendor for one call, opened before the first turn and kept warm. */
export interface TtsSession {
  /**
   * The session reports where each flushed phrase's audio ends ({@link TtsAudioChunk.phrasesDone}), so one
   * utterance can carry a whole agent turn, phrase by phrase. Without it, callers use one utterance per phrase.
   */
  readonly phraseEnds?: boolean;
  /**
   * With {@link phraseEnds}: how long an utterance may sit with all its audio delivered before the vendor
   * may drop its context (Cartesia: 1 s after its last audio, less a margin); a phrase coming later starts
   * a new utterance. Undefined: contexts live as long as the utterance.
   */
  readonly contextIdleMs?: number;
  /**
   * A new utterance; `language` (ISO 639-1) is what a vendor that takes a language per request speaks it in
   * (Cartesia: a `multi` call follows the caller turn by turn); others speak the session's.
   */
  utterance(id: string, language?: string): TtsUtterance;
  close(): Promise<void>;
}

/** A text-to-speech vendor. */
export interface TtsProvider {
  readonly id: TtsProviderId;
  connect(options: TtsOptions, signal?: AbortSignal): Promise<TtsSession>;
}
