// @ts-check
import { readFileSync } from 'node:fs';
/**
 * Mutation testing of the modules where a bug costs money or leaks data (docs/testing.md): `npm run mutate`
 * runs every module, `MUTATE=ssrf npm run mutate` one of them. Each module names the few test files that
 * are meant to catch its bugs, so a run is practical on two shared cores (one Stryker worker: the connected
 * tests share one DynamoDB Local and are not written to run twice at once). Not in CI: it takes long.
 */

/**
 * `file:from-to`, the lines of the block that opens on the line holding `opening` and closes on the next line
 * that is the opening line's indentation followed by `}` (a method) or `});` (a call with a closure).
 * @param {string} file
 * @param {string} opening
 */
function blockOf(file, opening) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const from = lines.findIndex((line) => line.includes(opening));
  const indent = from < 0 ? '' : lines[from].slice(0, lines[from].length - lines[from].trimStart().length);
  const to = lines.findIndex((line, i) => i > from && (line === `${indent}}` || line === `${indent}});`));
  if (from < 0 || to < 0) throw new Error(`stryker.config.mjs: no block opening with "${opening}" in ${file}`);
  return `${file}:${from + 1}-${to + 1}`;
}

/** @type {Record<string, { mutate: string[]; testFiles: string[] }>} */
const MODULES = {
  ssrf: {
    mutate: ['lib/domain/ssrf.ts', 'lib/outbound/target-guard.ts'],
    testFiles: ['test/unit/ssrf-ranges.test.ts', 'test/unit/voice-ssrf.test.ts', 'test/unit/tool-config.test.ts'],
  },
  interruption: {
    // The policy, the floor that applies it, and the session's word on when an utterance may be interrupted:
    // call-session.ts's floor hooks (`activity`, pause, resume, interrupt) and `interruptible()`/`interrupt()`.
    // Their line ranges are found in the file at each run: written down, they drifted onto other code twice.
    mutate: [
      'streaming-service/src/session/interruption.ts',
      'streaming-service/src/session/floor.ts',
      ...['this.floor = new CallerFloor(', 'private interruptible(): boolean {', 'interrupt(atMs: number): void {'].map((opening) =>
        blockOf('streaming-service/src/session/call-session.ts', opening),
      ),
    ],
    testFiles: ['test/unit/interruption.test.ts', 'test/unit/caller-floor.test.ts', 'test/unit/voice-session.test.ts'],
  },
  handler: {
    mutate: ['lib/http/handler.ts', 'lib/http/middleware/*.ts'],
    // The stack driven in-process (hand-built events, DynamoDB Local): seconds per run, where the HTTP-level
    // files (auth-and-errors, rate-limits) start a whole platform per mutant.
    testFiles: ['test/connected/route-middleware.test.ts', 'test/connected/route-middleware-auth.test.ts'],
  },
  credits: {
    mutate: ['lib/services/credits.ts', 'lib/store/credits.ts'],
    testFiles: ['test/connected/credits.test.ts'],
  },
  meetings: {
    mutate: ['lib/services/meetings.ts'],
    // The service called directly with a fixed clock; calls/meeting-link.test.ts covers the same over HTTP.
    testFiles: ['test/connected/meeting-link-service.test.ts'],
  },
  tools: {
    mutate: ['lib/services/tools.ts'],
    testFiles: ['test/connected/tools.test.ts'],
  },
};

const only = process.env.MUTATE;
if (only && !MODULES[only]) throw new Error(`MUTATE=${only}: expected one of ${Object.keys(MODULES).join(', ')}`);
const chosen = only ? [MODULES[only]] : Object.values(MODULES);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts', related: false },
  mutate: chosen.flatMap((m) => m.mutate),
  testFiles: [...new Set(chosen.flatMap((m) => m.testFiles))],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants) need the module evaluated again per mutant; the vitest runner
  // keeps the module graph between runs here, so they all "survive" (bareHost replaced by a function that
  // returns undefined survived 206 tests that each call it). Skipped rather than counted as noise.
  ignoreStatic: true,
  concurrency: 1,
  // Connected tests start a platform per file; a mutant that hangs a request waits for the test's timeout.
  timeoutMS: 30_000,
  // The first run starts DynamoDB Local and a platform; on a loaded shared machine that alone can pass 5 min.
  dryRunTimeoutMinutes: 20,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${only ?? 'all'}.json` },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['bench/out', 'cdk.out', '.data', '.test-data', 'reports'],
  thresholds: { high: 90, low: 85, break: null },
};
