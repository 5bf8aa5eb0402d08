import type { TtsWordTiming } from './port.js';

/**
 * Joins a vendor's character timing (ElevenLabs `alignment`: characters with start and duration) into
 * words: a word ends with its last character, and is complete when whitespace (or the utterance's end)
 * follows it. Times are ms from the start of the utterance's audio.
 */
export class WordAssembler {
  private count = 0;
  private word = '';
  private startMs = 0;
  private endMs = 0;

  /** Adds characters; returns the words they completed. */
  add(chars: readonly string[], startsMs: readonly number[], durationsMs: readonly number[], offsetMs: number): TtsWordTiming[] {
    const done: TtsWordTiming[] = [];
    chars.forEach((char, i) => {
      const start = offsetMs + (startsMs[i] ?? 0);
      if (/\s/.test(char)) {
        const word = this.finish();
        if (word) done.push(word);
        return;
      }
      if (this.word === '') this.startMs = start;
      this.word += char;
      this.endMs = start + (durationsMs[i] ?? 0);
    });
    return done;
  }

  /** The word in progress, complete now that no character follows it. */
  finish(): TtsWordTiming | undefined {
    if (this.word === '') return undefined;
    const word = { index: this.count++, word: this.word, startMs: this.startMs, endMs: this.endMs };
    this.word = '';
    return word;
  }

  /** The index the next whole word (as a vendor giving word timing directly numbers it) takes. */
  next(): number {
    return this.count++;
  }
}
