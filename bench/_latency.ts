/**
 * Latency measurement shared by benchmark suites: sequential timed calls, interleaved across cases so that
 * drift on a busy machine (JIT warm-up, GC, a neighbour's CPU burst) lands on every case alike instead of
 * on whichever happened to run last.
 */
import { loadavg } from 'node:os';

/** Percentiles and mean of one case, in milliseconds. */
export interface LatencyStats {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
}

/** One operation to time. `op` is awaited; each call is one sample. */
export interface LatencyCase {
  readonly name: string;
  readonly iterations: number;
  /** Untimed calls before sampling, so connection setup and first-call compilation are not measured. */
  readonly warmup: number;
  /** Receives the sample index so a case can rotate through inputs. */
  readonly op: (i: number) => Promise<unknown>;
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** p50, p95 and mean of a list of durations. */
export function summarize(samples: readonly number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
}

/**
 * Warms every case up, then runs them in `rounds` rounds, each case taking its share of iterations per
 * round. Calls are strictly sequential: the numbers are latencies, not throughput.
 */
export async function measureInterleaved(
  cases: readonly LatencyCase[],
  rounds = 5,
): Promise<Map<string, LatencyStats>> {
  for (const c of cases) for (let i = 0; i < c.warmup; i += 1) await c.op(i);
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const done = new Map<string, number>(cases.map((c) => [c.name, 0]));
  for (let round = 0; round < rounds; round += 1) {
    for (const c of cases) {
      const target = Math.round(((round + 1) * c.iterations) / rounds);
      const list = samples.get(c.name)!;
      for (let i = done.get(c.name)!; i < target; i += 1) {
        const t0 = performance.now();
        await c.op(i);
        list.push(performance.now() - t0);
      }
      done.set(c.name, target);
    }
  }
  return new Map([...samples].map(([name, s]) => [name, summarize(s)]));
}

/** Runs `work` over `items` with at most `limit` calls in flight. */
export async function withConcurrency<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A plain-text table, first column left-aligned, the others right-aligned. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Milliseconds with a precision that suits their size. */
export const ms = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** The machine's 1-minute load at a run's start and at its report: the line printed and the JSON line's fields. */
export function loadSpan(start: number): { line: string; fields: { loadStart: number; loadEnd: number } } {
  const end = loadavg()[0]!;
  return {
    line: `load average ${start.toFixed(1)} at the start, ${end.toFixed(1)} at the end`,
    fields: { loadStart: Number(start.toFixed(1)), loadEnd: Number(end.toFixed(1)) },
  };
}
