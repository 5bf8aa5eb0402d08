/**
 * One agent utterance (STYLE 9): its own AbortController covers the LLM stream, the TTS requests and the
 * queued audio, and it knows which of its phrases the caller actually heard, from Twilio `mark` echoes
 * (one mark per phrase). On a barge-in the session calls {@link SpeechHandle.interrupt}; a mark echoed
 * after that means Twilio flushed the phrase (it echoes every outstanding mark on `clear`), not that it
 * played.
 */
export type PhraseStatus =
  /** Being synthesized; no mark sent yet. */
  | 'pending'
  /** All its audio and its mark went out; waiting for the echo. */
  | 'sent'
  /** Echoed before any interruption: the caller heard it. */
  | 'played'
  /** Echoed after `clear`, or never sent: the caller did not hear it (all of it). */
  | 'dropped';

export interface Phrase {
  readonly index: number;
  /** Grows as a realtime model's transcript streams in (session/realtime/); fixed for a TTS phrase. */
  text: string;
  /** Which LLM round (tool calls start a new one) produced it, so history can be rebuilt per round. */
  readonly round: number;
  readonly markName: string;
  status: PhraseStatus;
  /** Audio bytes received from TTS so far (all of it once the phrase is `sent`). */
  audioBytes: number;
  /**
   * Set on an interruption for the phrase the caller was hearing: the share of its audio played (0-1).
   * History keeps the words of that share.
   */
  heardFraction?: number;
  /**
   * When each word of the phrase ends, in ms of its audio, by word index, where the TTS vendor gives word
   * timing (ElevenLabs alignment, Cartesia timestamps); undefined otherwise.
   */
  wordEndsMs?: number[];
  /** Set with `heardFraction` when the phrase has word timing: how many of its words played to their end. */
  wordsHeard?: number;
}

/**
 * Audio per character when a phrase was cut before its synthesis finished (its length is not known yet)
 * and no finished phrase of the utterance gives the voice's rate: ~65 ms a character is conversational
 * speech at ~15 characters a second.
 */
const DEFAULT_MS_PER_CHAR = 65;

/** The words of `text` heard when `fraction` of its audio played: a word counts once all of it played. */
export function heardWords(text: string, fraction: number): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const total = words.join(' ').length;
  const heard: string[] = [];
  let end = 0;
  for (const w of words) {
    end += (heard.length > 0 ? 1 : 0) + w.length;
    if (end > fraction * total + 1e-9) break;
    heard.push(w);
  }
  return heard.join(' ');
}

/** How many words, in order, had played to their end after `heardMs` of their phrase's audio. */
export function wordsPlayed(wordEndsMs: readonly (number | undefined)[], heardMs: number): number {
  let n = 0;
  while (n < wordEndsMs.length && wordEndsMs[n] !== undefined && wordEndsMs[n]! <= heardMs) n += 1;
  return n;
}

/** The first `count` words of `text`. */
export const firstWords = (text: string, count: number): string => text.trim().split(/\s+/).filter(Boolean).slice(0, count).join(' ');

/** What marks an utterance cut mid-phrase in history: the dash typography uses for speech broken off. */
export const INTERRUPTED_MARKER = '—';

export class SpeechHandle {
  readonly controller = new AbortController();
  readonly phrases: Phrase[] = [];
  private interruptedAt: number | undefined;
  private producing = true;
  private settleWaiters: (() => void)[] = [];
  private quietWaiters: (() => void)[] = [];

  constructor(
    readonly id: string,
    /** What kind of utterance: the greeting, a reply to a turn, or a fixed line (filler, goodbye). */
    readonly purpose: 'greeting' | 'reply' | 'line',
    /** Bytes per millisecond of the call's audio (8 for the phone's mu-law, 32 for the browser's PCM16). */
    readonly audioBytesPerMs: number = 8,
    /** The language it is spoken in (ISO 639-1), for voices that take one per utterance. */
    readonly language?: string,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.interruptedAt !== undefined;
  }

  get interruptedAtMs(): number | undefined {
    return this.interruptedAt;
  }

  /** Done: nothing more will be produced and every phrase is played or dropped. */
  get settled(): boolean {
    return !this.producing && this.phrases.every((p) => p.status === 'played' || p.status === 'dropped');
  }

  addPhrase(text: string, round: number): Phrase {
    const index = this.phrases.length;
    const phrase: Phrase = { index, text, round, markName: `${this.id}.${index}`, status: this.interrupted ? 'dropped' : 'pending', audioBytes: 0 };
    this.phrases.push(phrase);
    return phrase;
  }

  /** The phrase's audio and mark went to Twilio. */
  markSent(phrase: Phrase): void {
    if (phrase.status === 'pending') phrase.status = this.interrupted ? 'dropped' : 'sent';
    this.checkSettled();
  }

  /** Handles a mark echo; false when the mark is not this handle's. */
  onMarkEcho(name: string): boolean {
    const phrase = this.phrases.find((p) => p.markName === name);
    if (!phrase) return false;
    if (phrase.status === 'sent') phrase.status = this.interrupted ? 'dropped' : 'played';
    this.checkSettled();
    return true;
  }

  /**
   * Stops the utterance: aborts its LLM and TTS work (through the signal) and drops phrases not yet sent.
   * Phrases already sent stay `sent` until Twilio echoes their marks after `clear`. Idempotent.
   */
  interrupt(atMs: number = performance.now(), heardBytes?: number): boolean {
    if (this.interrupted) return false;
    this.interruptedAt = atMs;
    if (heardBytes !== undefined) this.placeCut(heardBytes);
    this.controller.abort(new Error('interrupted'));
    for (const p of this.phrases) if (p.status === 'pending') p.status = 'dropped';
    this.producing = false;
    this.checkSettled();
    return true;
  }

  /** No more phrases will be added (the LLM and TTS are done). */
  finishProducing(): void {
    this.producing = false;
    this.checkSettled();
  }

  /**
   * Gives up on marks that will never be echoed (the socket closed): phrases still `sent` count as
   * dropped, because nothing proves they were heard.
   */
  abandon(): void {
    this.producing = false;
    for (const p of this.phrases) if (p.status === 'sent' || p.status === 'pending') p.status = 'dropped';
    this.checkSettled();
  }

  /**
   * Finds the phrase the caller was hearing when `heardBytes` of the utterance's audio had played (phrases
   * play in order) and records how much of it was heard. A phrase heard to its end whose mark echo had not
   * come back yet counts as heard whole.
   */
  private placeCut(heardBytes: number): void {
    const done = this.phrases.filter((p) => p.status === 'sent' || p.status === 'played');
    const doneChars = done.reduce((n, p) => n + p.text.length, 0);
    const bytesPerChar = doneChars > 0 ? done.reduce((n, p) => n + p.audioBytes, 0) / doneChars : DEFAULT_MS_PER_CHAR * this.audioBytesPerMs;
    let start = 0;
    for (const p of this.phrases) {
      if (p.audioBytes === 0) break;
      const total = p.status === 'pending' ? Math.max(p.audioBytes, p.text.length * bytesPerChar) : p.audioBytes;
      const heard = heardBytes - start;
      start += p.audioBytes;
      if (p.status === 'played') continue;
      if (heard <= 0) break;
      p.heardFraction = Math.min(1, heard / total);
      if (p.wordEndsMs) p.wordsHeard = wordsPlayed(p.wordEndsMs, heard / this.audioBytesPerMs);
    }
  }

  /**
   * The text the caller heard, optionally of one LLM round only: played phrases whole, and the words heard
   * of a phrase cut by an interruption, followed by {@link INTERRUPTED_MARKER}; cut between two phrases,
   * the marker follows the last one heard.
   */
  playedText(round?: number): string {
    const parts: string[] = [];
    let unheard = false;
    for (const p of this.phrases) {
      // Phrases without text (keypad tones) are heard but are not words.
      if (p.text === '' || (round !== undefined && p.round !== round)) continue;
      if (p.status === 'played' || p.heardFraction === 1) parts.push(p.text);
      else if (p.heardFraction !== undefined) {
        const words = p.wordsHeard !== undefined ? firstWords(p.text, p.wordsHeard) : heardWords(p.text, p.heardFraction);
        if (words) parts.push(`${words}${INTERRUPTED_MARKER}`);
        else unheard = true;
      } else unheard = true;
    }
    // Cut between two phrases (the caller left after one, before the next played): broken off all the same.
    const last = parts.at(-1);
    if (this.interruptedAt !== undefined && unheard && last !== undefined && !last.endsWith(INTERRUPTED_MARKER)) parts[parts.length - 1] = `${last}${INTERRUPTED_MARKER}`;
    return parts.join(' ');
  }

  /** Every phrase added so far has played or been dropped (more may still come). */
  get quiet(): boolean {
    return this.phrases.every((p) => p.status === 'played' || p.status === 'dropped');
  }

  /** Resolves when {@link quiet}: what was said so far has been heard (a transfer waits for this). */
  whenQuiet(): Promise<void> {
    if (this.quiet) return Promise.resolve();
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  /** Resolves when the handle has settled (see {@link settled}). */
  whenSettled(): Promise<void> {
    if (this.settled) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  private checkSettled(): void {
    if (this.quiet && this.quietWaiters.length > 0) {
      const quiet = this.quietWaiters;
      this.quietWaiters = [];
      for (const w of quiet) w();
    }
    if (!this.settled) return;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const w of waiters) w();
  }
}
