/**
 * `npm run bench -- api`: what the API layer costs on top of DynamoDB, and what each Lambda costs to load.
 *
 * 1. Latency. A workspace with 5,000 agents in DynamoDB Local; each HTTP operation through the local server
 *    (the same handler modules Lambda runs) is compared with the raw DynamoDB round trips it needs, measured
 *    in the same run with the same client configuration. Sequential requests, interleaved in rounds.
 * 2. Cold start. Every handler entry in the route table bundled with the deployed esbuild options; bundle
 *    size, and the time to import the bundle in a fresh Node process (median of several).
 *
 * Benchmarks report; they never fail the run. docs/benchmarks.md explains each number.
 */
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROUTES, type RouteSpec } from '../lib/infra/routes.js';
import { API_KEY_AUTHORIZER_TTL } from '../lib/infra/constructs/edge.js';
import { bundleExtras } from '../lib/infra/constructs/api-function.js';
import { ENTRY_NEEDS } from '../lib/infra/entry-needs.js';
import { withBenchPlatform } from './_platform.js';
import { bundleEntry, bundleName, measureInit, median, type BundleReport } from './_bundles.js';
import { formatTable, ms } from './_latency.js';
import { type LatencyFigures, measureLatency, printLatency } from './_api-latency.js';
import { BENCH_TABLE, BUCKET, BUNDLE_ROOT, INIT_RUNS, PROJECT_ROOT, TARGET } from './_api-settings.js';

/**
 * The functions beyond the route handlers (lib/infra/stack.ts, constructs/edge.ts, constructs/campaign-scheduler.ts),
 * bundled and timed with them: the API-key authorizer, the queue consumers and the schedules.
 */
const OTHER_ENTRIES = [
  'functions/auth/authorizer.ts',
  'functions/queue/dispatch.ts',
  'functions/queue/webhooks.ts',
  'functions/schedule/abandoned-streams.ts',
  'functions/schedule/campaigns.ts',
] as const;

/** `npm run bench -- api --bundles-only`: only the cold-start part (no DynamoDB Local, no latency rounds). */
const BUNDLES_ONLY = process.argv.includes('--bundles-only');


/** Bundles every distinct handler entry and times its cold import. */
async function measureBundles(): Promise<BundleReport[]> {
  // The routes' handlers and every other function the stack deploys (test/offline/bundles.test.ts checks the set).
  const entries = [...new Set([...Object.values(ROUTES as Record<string, RouteSpec>).map((r) => r.entry), ...OTHER_ENTRIES])].sort();
  await rm(BUNDLE_ROOT, { recursive: true, force: true });
  const reports: BundleReport[] = [];
  for (const entry of entries) {
    const needs = (ENTRY_NEEDS as Partial<Record<string, Parameters<typeof bundleExtras>[0]>>)[entry] ?? {};
    const built = await bundleEntry(PROJECT_ROOT, entry, join(BUNDLE_ROOT, bundleName(entry)), bundleExtras(needs));
    reports.push(await measureInit(built, INIT_RUNS));
  }
  return reports;
}

function printBundles(reports: readonly BundleReport[]): void {
  process.stdout.write(
    `\nLambda bundles (lib/infra/bundling.ts options: the AWS SDK bundled, S3 and SQS loaded from the runtime on first use).\n` +
      `Init = cold import of the bundle in a fresh Node process with only PATH set, median of ${INIT_RUNS}; the bundled\n` +
      "SDK loads with it, S3 and SQS do not (no handler touches them at import). CPU = user + system time of that import, which\n" +
      'is what it would take on a dedicated core (wall time here also includes waiting for a shared core).\n\n',
  );
  const rows = reports.map((r) => [
    r.entry,
    r.bytes !== undefined ? (r.bytes / 1024).toFixed(1) : '-',
    r.initMs ? ms(median(r.initMs)) : '-',
    r.initCpuMs ? ms(median(r.initCpuMs)) : '-',
    r.initMs ? `${ms(Math.min(...r.initMs))}-${ms(Math.max(...r.initMs))}` : '-',
    r.problem ?? '',
  ]);
  process.stdout.write(`${formatTable(['entry', 'KB', 'init ms (median)', 'init CPU ms (median)', 'init ms range', 'note'], rows)}\n`);
  const beside = reports.flatMap((r) => (r.modules ?? []).map((m) => `  ${(m.bytes / 1024).toFixed(1).padStart(7)} KB  ${m.file} beside ${r.entry}`));
  if (beside.length > 0) {
    process.stdout.write(`\nModules built beside a bundle (loaded on first use, so not in its size or init):\n${beside.join('\n')}\n`);
  }
  const largest = [...reports].filter((r) => r.bytes !== undefined).sort((a, b) => b.bytes! - a.bytes!)[0];
  if (largest?.largestInputs) {
    process.stdout.write(`\nLargest inputs of the largest bundle (${largest.entry}):\n`);
    for (const input of largest.largestInputs) process.stdout.write(`  ${(input.bytes / 1024).toFixed(1).padStart(7)} KB  ${input.path}\n`);
  }
}

function printSummary(latency: LatencyFigures | undefined, reports: readonly BundleReport[], seconds: number): void {
  const measured = reports.filter((r) => r.bytes !== undefined);
  const maxKb = Math.max(...measured.map((r) => r.bytes! / 1024));
  const over = measured.filter((r) => r.bytes! / 1024 > TARGET.bundleKb).length;
  const slowest = (pick: (r: BundleReport) => readonly number[] | undefined) =>
    reports
      .filter((r) => pick(r))
      .map((r) => ({ entry: r.entry, ms: median(pick(r)!) }))
      .reduce((a, b) => (b.ms > a.ms ? b : a), { entry: '-', ms: 0 });
  const wall = slowest((r) => r.initMs);
  const cpu = slowest((r) => r.initCpuMs);
  const verdict = (ok: boolean, by: string) => (ok ? 'within target' : `MISSED by ${by}`);
  const skipped = reports.filter((r) => r.problem);
  // The headline is the node:http row: the API and its baseline reached through the same client stack
  // (docs/benchmarks.md, "Which GET ratio is the headline"); the fetch row stays beside it.
  const headline = latency?.getRatioHttp;
  const lines = [
    ...(headline === undefined
      ? ['GET agent / raw GetItem p50: not measured (--bundles-only)']
      : [`GET agent / raw GetItem p50, both through the baseline SDK's own client stack (node:http keep-alive): ${headline.toFixed(2)}x vs <= ${TARGET.getRatio}x: ${verdict(headline <= TARGET.getRatio, `${(headline - TARGET.getRatio).toFixed(2)}x`)} (with a fetch client: ${latency!.getRatio.toFixed(2)}x)`]),
    `largest bundle: ${maxKb.toFixed(1)} KB vs <= ${TARGET.bundleKb} KB: ${verdict(maxKb <= TARGET.bundleKb, `${(maxKb - TARGET.bundleKb).toFixed(1)} KB`)} (${over} of ${measured.length} over)`,
    `slowest init, wall median: ${ms(wall.ms)} ms (${wall.entry}) vs <= ${TARGET.initMs} ms: ${verdict(wall.ms <= TARGET.initMs, `${ms(wall.ms - TARGET.initMs)} ms`)}`,
    `slowest init, CPU median: ${ms(cpu.ms)} ms (${cpu.entry}) vs <= ${TARGET.initMs} ms: ${verdict(cpu.ms <= TARGET.initMs, `${ms(cpu.ms - TARGET.initMs)} ms`)}`,
    ...(skipped.length > 0 ? [`not measured: ${skipped.map((r) => `${r.entry} (${r.problem})`).join('; ')}`] : []),
    `total run time ${seconds.toFixed(0)} s; 1-minute load average at the end ${loadavg()[0]!.toFixed(1)} (a busy machine inflates every number)`,
  ];
  process.stdout.write(`\nSummary\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  // The last line: the figures as JSON, for scripts that compare runs (as the pipeline suite ends).
  const round = (n: number) => Math.round(n * 100) / 100;
  const figures = {
    suite: 'api',
    ...(latency
      ? {
          getRatioHttp: round(latency.getRatioHttp),
          getRatio: round(latency.getRatio),
          rateLimiterRatio: round(latency.limiterRatio),
          rateLimitWindowCountRatio: round(latency.windowCountRatio),
          rateLimitAddedMs: round(latency.windowCountAddedMs),
          rateLimitWritesPer1000: round(latency.limiterWritesPer1000),
        }
      : {}),
    maxBundleKb: round(maxKb),
    slowestInitMs: round(wall.ms),
    slowestInitCpuMs: round(cpu.ms),
    seconds: Math.round(seconds),
    loadAverage1m: round(loadavg()[0]!),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Runs the suite: latency against a fresh platform, then bundles once the platform is gone. */
export async function run(): Promise<void> {
  const started = performance.now();
  process.stdout.write(`1-minute load average at the start: ${loadavg()[0]!.toFixed(1)}\n`);
  // One JSON log line per request would bury the report; writing it is not what is being measured.
  process.env.LOG_LEVEL = 'silent';
  // Thousands of sequential requests with one key: far above the default per-key limit. Raised, not turned
  // off, so every measured request still pays for its window count.
  process.env.RATE_LIMIT_KEY = '1000000/10s';
  // The deployed request path: behind API Gateway the authorizer's verdict is cached per key for its TTL, so
  // a route function never reads the key; locally the same verdict cache stands in for it (lib/http/handler.ts).
  process.env.KEY_VERDICT_CACHE_TTL_MS = String(API_KEY_AUTHORIZER_TTL.toMilliseconds());
  const measure = () =>
    withBenchPlatform({ dataDirPrefix: 'vap-bench-', table: BENCH_TABLE, bucket: BUCKET }, async (platform) =>
      printLatency(await measureLatency(platform)),
    );
  const latency = BUNDLES_ONLY ? undefined : await measure();
  // After the JVM is gone, so cold imports do not compete with it for the two cores.
  const reports = await measureBundles();
  printBundles(reports);
  await rm(BUNDLE_ROOT, { recursive: true, force: true });
  printSummary(latency, reports, (performance.now() - started) / 1000);
}
