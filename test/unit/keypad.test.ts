/**
 * Invariant: the keypad turns the caller's keys into one model turn per sequence (ended by `#`, by the key
 * gap, or at 32 keys), runs a shortcut only when its key starts a sequence, and forgets pending keys when
 * the call ends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEY_GAP_MS, Keypad } from '../../streaming-service/src/session/dtmf.js';

let inputs: string[];
let shortcuts: string[];
const keypad = () =>
  new Keypad({ '0': { action: 'transfer', destination: '+14155550142', mode: 'cold' }, '*': { action: 'end_call' } }, {
    shortcut: (key) => shortcuts.push(key),
    input: (text) => inputs.push(text),
  });

beforeEach(() => {
  vi.useFakeTimers();
  inputs = [];
  shortcuts = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('keypad', () => {
  it('groups keys until # or the gap', () => {
    const k = keypad();
    for (const key of '12#') k.press(key);
    expect(inputs).toEqual(['[The caller pressed 1 2 # on the keypad]']);
    for (const key of '34') k.press(key);
    vi.advanceTimersByTime(KEY_GAP_MS - 1);
    expect(inputs).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(inputs.at(-1)).toBe('[The caller pressed 3 4 on the keypad]');
  });

  it('runs a shortcut only as the first key; inside a sequence it is a digit', () => {
    const k = keypad();
    k.press('0');
    expect(shortcuts).toEqual(['0']);
    for (const key of '50*#') k.press(key);
    expect(shortcuts).toEqual(['0']);
    expect(inputs).toEqual(['[The caller pressed 5 0 * # on the keypad]']);
  });

  it('cuts a stuck key at 32 and drops pending keys on close', () => {
    const k = keypad();
    for (let i = 0; i < 33; i += 1) k.press('7');
    expect(inputs).toHaveLength(1);
    k.close();
    vi.advanceTimersByTime(KEY_GAP_MS * 2);
    expect(inputs).toHaveLength(1);
  });
});
