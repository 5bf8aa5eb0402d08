/**
 * Invariant: a Gemini Live call keeps the newest handle Google marked resumable (an update with
 * `resumable: false` or no handle leaves the last good one), and after a `goAway` it moves at once when
 * nothing is in flight, else at the next idle point or at four fifths of `timeLeft`, once per `goAway`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeminiResumption, durationMs } from '../../lib/vendors/realtime/gemini-resumption.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Gemini Live resumption bookkeeping', () => {
  it('keeps the newest resumable handle only', () => {
    const r = new GeminiResumption(() => undefined);
    expect(r.handle).toBeUndefined();
    r.update({ newHandle: 'h1', resumable: true });
    r.update({ newHandle: '', resumable: false });
    expect(r.handle).toBe('h1');
    r.update({ newHandle: 'h2', resumable: false });
    expect(r.handle).toBe('h1');
    r.update({ newHandle: 'h3', resumable: true });
    expect(r.handle).toBe('h3');
  });

  it('moves at once on a goAway when idle, and only once', () => {
    const moves: string[] = [];
    const r = new GeminiResumption((why) => moves.push(why));
    r.goAway({ timeLeft: '50s' }, true);
    r.idle();
    expect(moves).toEqual(['goAway']);
  });

  it('waits for the next idle point when busy', () => {
    vi.useFakeTimers();
    const moves: string[] = [];
    const r = new GeminiResumption((why) => moves.push(why));
    r.goAway({ timeLeft: '50s' }, false);
    r.goAway({ timeLeft: '40s' }, false);
    expect(moves).toEqual([]);
    r.idle();
    expect(moves).toEqual(['goAway']);
    vi.advanceTimersByTime(60_000);
    expect(moves).toEqual(['goAway']);
  });

  it('moves at four fifths of timeLeft when never idle', () => {
    vi.useFakeTimers();
    const moves: string[] = [];
    const r = new GeminiResumption((why) => moves.push(why));
    r.goAway({ timeLeft: '10s' }, false);
    vi.advanceTimersByTime(7_999);
    expect(moves).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(moves).toEqual(['goAway deadline']);
  });

  it('forgets a pending move on reset (the call closed)', () => {
    vi.useFakeTimers();
    const moves: string[] = [];
    const r = new GeminiResumption((why) => moves.push(why));
    r.goAway({ timeLeft: '10s' }, false);
    r.reset();
    r.idle();
    vi.advanceTimersByTime(20_000);
    expect(moves).toEqual([]);
  });

  it('reads protobuf durations', () => {
    expect(durationMs('50s')).toBe(50_000);
    expect(durationMs('1.5s')).toBe(1_500);
    expect(durationMs(undefined)).toBe(10_000);
    expect(durationMs('soon')).toBe(10_000);
  });
});
