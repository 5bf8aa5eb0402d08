/**
 * Deepgram Aura's text limits on our side (lib/vendors/tts/deepgram-limits.ts): `Speak` text is cut at
 * 2,000 characters after a sentence end, else after a space, never inside a word, and nothing is lost; the
 * per-minute character window frees as its entries age out.
 */
import { describe, expect, it } from 'vitest';
import { CharWindow, charCount, closeRetryable, cutAt, splitForSpeak } from '../../lib/vendors/tts/deepgram-limits.js';

describe('splitForSpeak', () => {
  it('keeps text within the limit whole', () => {
    expect(splitForSpeak('Hello there. ', 2_000)).toEqual(['Hello there. ']);
  });

  it('cuts after the last sentence end that fits, so the pieces join back to the text', () => {
    const text = 'One two. Three four five. Six seven eight nine.';
    const pieces = splitForSpeak(text, 20);
    expect(pieces.join('')).toBe(text);
    expect(pieces[0]).toBe('One two. ');
    expect(pieces.every((p) => charCount(p) <= 20)).toBe(true);
  });

  it('without a sentence end, cuts after a space: no word is split', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const pieces = splitForSpeak(text, 12);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces.slice(0, -1)) expect(p.endsWith(' ')).toBe(true);
    expect(pieces.flatMap((p) => p.trim().split(' '))).toEqual(text.split(' '));
  });

  it('a 5,000-character answer becomes Speaks of at most 2,000 characters, counted as code points', () => {
    const text = 'Wörd ünd émoji 👋 here. '.repeat(220);
    const pieces = splitForSpeak(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((p) => charCount(p) <= 2_000)).toBe(true);
  });

  it('cuts a single word longer than the limit at the limit, the only way to send it', () => {
    expect(cutAt('x'.repeat(30), 10)).toEqual(['x'.repeat(10), 'x'.repeat(20)]);
  });
});

describe('CharWindow', () => {
  it('gives room back once characters are older than the window, and starts over on a new socket', () => {
    let now = 0;
    const window = new CharWindow(() => now, 2_400, 61_000);
    window.add(2_000);
    expect(window.room()).toBe(400);
    now = 30_000;
    window.add(400);
    expect(window.room()).toBe(0);
    now = 61_001;
    expect(window.room()).toBe(2_000);
    window.reset();
    expect(window.room()).toBe(2_400);
  });
});

describe('closeRetryable', () => {
  it('a new socket fixes the cap (1011 NET-0003) and the character budget (1008 DATA-0001), not BIG-0001 or other 1008s', () => {
    expect(closeRetryable(1011, 'NET-0003')).toBe(true);
    expect(closeRetryable(1008, 'DATA-0001')).toBe(true);
    expect(closeRetryable(1009, 'BIG-0001')).toBe(false);
    expect(closeRetryable(1008, 'DATA-0000')).toBe(false);
  });
});
