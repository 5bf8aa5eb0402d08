// Invariant: what history keeps of a phrase cut by an interruption is what the caller heard: to the word
// when the TTS vendor gave word timing (a word counts once it played to its end), by the share of the
// phrase's audio played otherwise. Character timing from a vendor joins into words at whitespace.
import { describe, expect, it } from 'vitest';
import { WordAssembler } from '../../lib/vendors/tts/words.js';
import { INTERRUPTED_MARKER, SpeechHandle, wordsPlayed } from '../../streaming-service/src/session/speech-handle.js';

describe('heard words with word timing', () => {
  it('counts the words that played to their end, however long each was', () => {
    expect(wordsPlayed([400, 500, 900], 0)).toBe(0);
    expect(wordsPlayed([400, 500, 900], 499)).toBe(1);
    expect(wordsPlayed([400, 500, 900], 500)).toBe(2);
    // A word whose timing has not arrived stops the count.
    expect(wordsPlayed([400, undefined as unknown as number, 900], 950)).toBe(1);
  });

  it('keeps the words the timing says were heard, where the audio share would say otherwise', () => {
    const h = new SpeechHandle('h1', 'reply');
    const p = h.addPhrase('Absolutely, we have a table at seven.', 0);
    // 2,000 ms at 8 bytes a ms; a long first word (the vendor drew it out), then quick ones.
    p.audioBytes = 16_000;
    p.wordEndsMs = [1_100, 1_250, 1_400, 1_450, 1_600, 1_700, 1_850];
    h.markSent(p);
    // 1,500 ms heard: 75 % of the audio (six of seven words by share), four words by timing.
    h.interrupt(performance.now(), 1_500 * 8);
    expect(h.playedText()).toBe(`Absolutely, we have a${INTERRUPTED_MARKER}`);
  });

  it('falls back to the audio share without word timing', () => {
    const h = new SpeechHandle('h2', 'reply');
    const p = h.addPhrase('Absolutely, we have a table at seven.', 0);
    p.audioBytes = 16_000;
    h.markSent(p);
    h.interrupt(performance.now(), 1_500 * 8);
    expect(h.playedText()).toBe(`Absolutely, we have a table${INTERRUPTED_MARKER}`);
  });
});

describe('character timing joined into words', () => {
  it('ends a word at its last character, across messages, and finishes the last one at the end', () => {
    const words = new WordAssembler();
    // "Hi th" in one message from 0 ms, "ere." in the next, which starts 350 ms into the audio.
    expect(words.add(['H', 'i', ' ', 't', 'h'], [0, 70, 140, 210, 280], [70, 70, 70, 70, 70], 0)).toEqual([{ index: 0, word: 'Hi', startMs: 0, endMs: 140 }]);
    expect(words.add(['e', 'r', 'e', '.'], [0, 70, 140, 210], [70, 70, 70, 70], 350)).toEqual([]);
    expect(words.finish()).toEqual({ index: 1, word: 'there.', startMs: 210, endMs: 630 });
    expect(words.finish()).toBeUndefined();
  });
});
