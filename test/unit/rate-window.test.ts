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

  it('a refusal or a full count from the authority applies to the rest of the window', () => {
    const w = new LocalWindows();
    const t0 = 1_000_000_000_000;
    w.admit(policy, 'a', t0);
    expect(w.settle(policy, 'a', t0, 1, { allowed: false, count: 3 })).toMatchObject({ allowed: false, remaining: 0 });
    expect(w.admit(policy, 'a', t0 + 1)).toMatchObject({ decision: { allowed: false }, reserve: 0 });
    w.admit(policy, 'b', t0);
    expect(w.settle(policy, 'b', t0, 1, { allowed: true, count: 3 })).toMatchObject({ allowed: true, remaining: 0 });
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

/** The table's window item as countInWindow keeps it: a reservation is taken whole or not at all. */
function authority(limit: number) {
  let n = 0;
  return {
    get count() {
      return n;
    },
    reserve(amount: number) {
      if (n + amount > limit) return { allowed: false, count: limit };
      n += amount;
      return { allowed: true, count: n };
    },
  };
}

/** One request through an instance as lib/services/rate-limits.ts takeRate runs it; returns the decision and the units asked for. */
function request(w: LocalWindows, table: ReturnType<typeof authority>, p: RatePolicy, nowMs: number) {
  const { decision, reserve } = w.admit(p, 'k', nowMs);
  if (reserve === 0) return { decision, asked: [] as number[] };
  const first = table.reserve(reserve);
  if (first.allowed || reserve === 1) return { decision: w.settle(p, 'k', nowMs, reserve, first), asked: [reserve] };
  w.narrow(p, 'k', nowMs);
  return { decision: w.settle(p, 'k', nowMs, 1, table.reserve(1)), asked: [reserve, 1] };
}

describe('batched reservations in the authority (the table-backed limiter)', () => {
  const t0 = 1_000_000_000_000;
  const busy: RatePolicy = { name: 'key', limit: 200, windowSeconds: 10 };

  it('counts a small limit exactly: one unit per request, and the remaining count is the table\'s', () => {
    const w = new LocalWindows();
    const table = authority(policy.limit);
    const seen = [1, 2, 3, 4].map(() => request(w, table, policy, t0));
    expect(seen.map((s) => s.asked)).toEqual([[1], [1], [1], []]);
    expect(seen.map((s) => [s.decision.allowed, s.decision.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(table.count).toBe(3);
  });

  it('grows the batch with the instance\'s own traffic up to 5 % of the limit, and never admits more than the limit', () => {
    const w = new LocalWindows();
    const table = authority(busy.limit);
    const asked: number[] = [];
    let admitted = 0;
    for (let i = 0; i < 300; i += 1) {
      const r = request(w, table, busy, t0 + i);
      asked.push(...r.asked);
      if (r.decision.allowed) admitted += 1;
    }
    expect(asked.slice(0, 6)).toEqual([1, 1, 2, 4, 8, 10]);
    expect(Math.max(...asked)).toBe(10);
    // Every unit reserved was used: one instance strands nothing, and the limit is met exactly.
    expect(admitted).toBe(busy.limit);
    expect(table.count).toBe(busy.limit);
    expect(asked.length).toBeLessThan(busy.limit / 4);
  });

  it('across instances: never over the limit, and each strands less than one batch', () => {
    const instances = [new LocalWindows(), new LocalWindows(), new LocalWindows()];
    const table = authority(busy.limit);
    let admitted = 0;
    for (let i = 0; i < 600; i += 1) if (request(instances[i % 3]!, table, busy, t0 + i).decision.allowed) admitted += 1;
    expect(table.count).toBe(busy.limit);
    expect(admitted).toBeLessThanOrEqual(busy.limit);
    expect(admitted).toBeGreaterThan(busy.limit - 3 * 10);
  });

  it('a burst whose reservations are all on their way at once reserves one unit each, never past the limit', () => {
    // 100 concurrent requests of one key: each asks before any answer comes back (takeRate awaits the table).
    const w = new LocalWindows();
    const table = authority(busy.limit);
    const asked = Array.from({ length: 100 }, () => w.admit(busy, 'k', t0));
    expect(asked.map((a) => a.reserve)).toEqual([1, ...Array(99).fill(1)]);
    const decisions = asked.map((a) => w.settle(busy, 'k', t0, a.reserve, table.reserve(a.reserve)));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(table.count).toBe(100);
    // Answered, the instance batches again.
    expect(request(w, table, busy, t0).asked).toEqual([10]);
  });

  it('a batch that does not fit narrows the instance to single units for the rest of the window', () => {
    const w = new LocalWindows();
    const table = authority(busy.limit);
    for (let i = 0; i < 16; i += 1) request(w, table, busy, t0);
    table.reserve(busy.limit - table.count - 2); // other instances took all but two units
    const results = Array.from({ length: 4 }, () => request(w, table, busy, t0));
    expect(results.map((r) => r.asked)).toEqual([[10, 1], [1], [], []]);
    expect(results.map((r) => r.decision.allowed)).toEqual([true, true, false, false]);
    expect(table.count).toBe(busy.limit);
    // The next window starts over: exact counting, then batches again.
    expect(request(w, authority(busy.limit), busy, t0 + 10_000)).toMatchObject({ asked: [1], decision: { allowed: true, remaining: 199 } });
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
