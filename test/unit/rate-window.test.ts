/**
 * Invariant: the fixed-window arithmetic never lets more than `limit` requests through one window of one
 * partition in memory, resets exactly at the window boundary, says how long until then (at least 1 s), and
 * keeps partitions and policies apart; a refusal from the table closes the window for the instance. Rate
 * settings parse only as `<requests>/<seconds>s`, and the config refuses anything else.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { LocalWindows, parseRate, windowAt, type RatePolicy } from '../../lib/domain/rate-window.js';

const policy: RatePolicy = { name: 'key', limit: 3, windowSeconds: 10 };

describe('fixed windows', () => {
  it('aligns windows to the clock and rounds the time to reset up', () => {
    expect(windowAt(policy, 1_000_000_000_000)).toEqual({ startMs: 1_000_000_000_000, resetSeconds: 10 });
    expect(windowAt(policy, 1_000_000_009_001)).toEqual({ startMs: 1_000_000_000_000, resetSeconds: 1 });
    expect(windowAt(policy, 1_000_000_009_999)).toEqual({ startMs: 1_000_000_000_000, resetSeconds: 1 });
  });

  it('lets `limit` through per window and partition, then refuses until the next window', () => {
    const w = new LocalWindows();
    const t0 = 1_000_000_000_000;
    const taken = [1, 2, 3, 4].map(() => w.take(policy, 'a', t0 + 100));
    expect(taken.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(w.take(policy, 'b', t0 + 200).allowed).toBe(true);
    expect(w.take({ ...policy, name: 'other' }, 'a', t0 + 200).allowed).toBe(true);
    expect(w.exhausted(policy, 'a', t0 + 9_999)).toBe(true);
    expect(w.take(policy, 'a', t0 + 10_000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('a refusal or a higher count from the authority applies to the rest of the window', () => {
    const w = new LocalWindows();
    const t0 = 1_000_000_000_000;
    w.take(policy, 'a', t0);
    w.settle(policy, 'a', t0, { allowed: false, count: 3 });
    expect(w.take(policy, 'a', t0 + 1).allowed).toBe(false);
    w.take(policy, 'b', t0);
    w.settle(policy, 'b', t0, { allowed: true, count: 3 });
    expect(w.exhausted(policy, 'b', t0 + 1)).toBe(true);
  });

  it('forgets the oldest partitions beyond its bound', () => {
    const w = new LocalWindows(2);
    const t0 = 1_000_000_000_000;
    for (let i = 0; i < 3; i += 1) w.take(policy, 'a', t0);
    expect(w.exhausted(policy, 'a', t0)).toBe(true);
    w.take(policy, 'b', t0);
    w.take(policy, 'c', t0);
    expect(w.exhausted(policy, 'a', t0)).toBe(false);
  });
});

describe('rate settings', () => {
  it('parses <requests>/<seconds>s and nothing else', () => {
    expect(parseRate('200/10s')).toEqual({ limit: 200, windowSeconds: 10 });
    expect(parseRate(' 20 / 1 s ')).toEqual({ limit: 20, windowSeconds: 1 });
    for (const bad of ['200', '200/10', '0/10s', '10/0s', '-1/10s', '1.5/10s', '200/100000s', 'ten/10s', '']) expect(parseRate(bad), bad).toBeUndefined();
  });

  it('the config has the documented defaults and refuses a malformed rate', () => {
    const config = loadConfig({});
    expect(config.RATE_LIMIT_KEY).toEqual({ limit: 200, windowSeconds: 10 });
    expect(config.RATE_LIMIT_MEETING).toEqual({ limit: 60, windowSeconds: 60 });
    expect(config.UNKNOWN_KEY_CACHE_TTL_MS).toBe(30_000);
    expect(() => loadConfig({ RATE_LIMIT_KEY: '200 per second' })).toThrow(/RATE_LIMIT_KEY/);
  });
});
