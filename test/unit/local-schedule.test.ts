/**
 * Invariant: `npm start` runs a scheduled job (the sweep of abandoned streams) the way an EventBridge rate
 * rule would: once per period, never two runs at once (a tick during a slow run is skipped), a failing run
 * is reported and the schedule goes on, and stopping waits for the run in progress. The live-stream shard
 * of a call is fixed and within range. Timers are faked: nothing waits on the wall clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSchedule } from '../../lib/local/platform/schedule.js';
import { LIVE_STREAM_SHARDS, key, liveStreamShardOf } from '../../lib/store/model.js';
import { newId } from '../../lib/domain/ids.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('local schedule', () => {
  it('runs once per period, skips ticks while a run is still going, and stop waits for it', async () => {
    let release: () => void = () => undefined;
    let runs = 0;
    const schedule = startSchedule(
      () => {
        runs += 1;
        return new Promise<void>((r) => {
          release = r;
        });
      },
      1_000,
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    // The first run is still going: three more periods start nothing.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);

    let stopped = false;
    const stopping = schedule.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(2);
  });

  it('reports a failing run and keeps going', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const schedule = startSchedule(
      async () => {
        runs += 1;
        throw new Error(`run ${runs} failed`);
      },
      500,
      (e) => errors.push(e),
    );
    await vi.advanceTimersByTimeAsync(1_500);
    expect(runs).toBe(3);
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1 failed', 'run 2 failed', 'run 3 failed']);
    await schedule.stop();
  });
});

describe('live-stream index shards', () => {
  it('puts every call on one fixed shard in range, and uses every shard', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const id = newId('call');
      const shard = liveStreamShardOf(id);
      expect(shard).toBeGreaterThanOrEqual(0);
      expect(shard).toBeLessThan(LIVE_STREAM_SHARDS);
      expect(liveStreamShardOf(id)).toBe(shard);
      expect(key.liveStreamIndex(id, '2026-01-01T00:00:00.000Z')).toEqual({ gsi1pk: `LIVESTREAM#${shard}`, gsi1sk: '2026-01-01T00:00:00.000Z' });
      seen.add(shard);
    }
    expect(seen.size).toBe(LIVE_STREAM_SHARDS);
  });
});
