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
  readonly text: string;
  /** Which LLM round (tool calls start a new one) produced it, so history can be rebuilt per round. */
  readonly round: number;
  readonly markName: string;
  status: PhraseStatus;
}

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
    const phrase: Phrase = { index, text, round, markName: `${this.id}.${index}`, status: this.interrupted ? 'dropped' : 'pending' };
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
  interrupt(atMs: number = performance.now()): boolean {
    if (this.interrupted) return false;
    this.interruptedAt = atMs;
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

  /** The text the caller heard, optionally of one LLM round only. */
  playedText(round?: number): string {
    return this.phrases
      // Phrases without text (keypad tones) are heard but are not words.
      .filter((p) => p.status === 'played' && p.text !== '' && (round === undefined || p.round === round))
      .map((p) => p.text)
      .join(' ');
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
