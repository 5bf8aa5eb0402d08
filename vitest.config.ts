import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { WAIT_MS } from './test/support/progress.js';

/**
 * Test files run side by side, four per core (at least eight). The files that take longest are conversations
 * over the vendor stand-ins, which wait on real-time audio: with one file per core the CPU sat mostly idle
 * (two workers: 590 s of wall clock; four: 359 s, every file taking as long as before). On the two-core
 * machine, 28 November: six workers left the CPU idle half of the run's last minute (177-180 s), eight kept
 * it busy to the end (167-172 s), ten spent more on starting workers than they saved (188 s). The files are
 * independent (docs/testing.md): each file's platform has its own table, dispatch and webhook queues, port,
 * data directory and instance registry; only the stores started by global setup are shared. TEST_WORKERS
 * overrides the count (1 runs the files one after another).
 */
const workers = Number(process.env.TEST_WORKERS) || Math.max(8, availableParallelism() * 4);

/**
 * The connected files that take longest, longest first (seconds of wall clock in a whole run on the idle
 * two-core machine, 24 November: 133, 97, 77, 61, 52, 49, 45, 39, 34). They start first, whichever
 * project they are in: started late, one of them alone was the run's last minute (`fuzz`, isolated, began at
 * 202 s of 278). The list says which files start before every group below, whatever their group; the
 * recorded durations (DURATIONS below) only order the files within a group.
 */
const SLOWEST_CONNECTED_FILES = [
  'test/connected/calls/campaigns.test.ts',
  'test/connected/calls/call-controls.test.ts',
  'test/connected/fuzz.test.ts',
  'test/connected/calls/voicemail.test.ts',
  'test/connected/calls/stream-billing.test.ts',
  'test/connected/dashboard-pages.browser.test.ts',
  'test/connected/dashboard.browser.test.ts',
  'test/connected/cli.test.ts',
  // Its own `npm start` (a JVM and a platform, ~25 s) and one call in real time (~25 s).
  'test/connected/readme-quickstart.test.ts',
  'test/connected/calls/widget.browser.test.ts',
  'test/connected/calls/meeting-call.browser.test.ts',
  // Not among the longest (14 s alone, most of it waiting), but started late it ran alone at the end of
  // the run (22 s).
  'test/connected/calls/lost-callbacks.test.ts',
];

/**
 * Connected files that mostly wait: conversations over the vendor stand-ins and calls paced in real time
 * (voice-*, calls/*), pages in a browser, the vendor contract files. Each takes 5-30 s of wall clock for
 * 0.3-2.5 s of CPU. They start right after the slowest files, while the fuzz and the 200-contact campaign
 * keep both cores busy, and the files that are all CPU (the other connected files, the unit files) fill the
 * end. A fresh clone has no durations to order by (vitest orders those by size): these files then came last
 * and waited with the cores half idle for the run's last 40 s (28 November, a first run: 194 s).
 */
const WAITS_ON_REAL_TIME = /^test\/connected\/(voice-|calls\/|web-stream\.|[\w-]+\.browser\.|[\w-]+-contract\.)/;

/**
 * Files that wait on processes they start (Node processes through tsx, each a second or two of start-up):
 * they go with the waiting files, whose idle CPU the processes use. Among the unit files, which come last,
 * `local-children` alone was the run's last 3-5 s (28 November, 19:40: it started at 152 s of 157).
 */
const WAITS_ON_PROCESSES = ['test/connected/contacts-import-cli.test.ts', 'test/unit/local-children.test.ts'];

/**
 * Seconds each file took in a whole run on the idle two-core machine (test/durations.json, written by
 * test/support/record-durations.ts). Within each group below the longest start first, in every run: vitest
 * itself orders by the last run's durations when its cache has them and by file size when not, so a first
 * run (CI, a fresh clone) started the waiting files in another order, and the short ones first left the cores
 * idle for about 20 s once the fuzz and the campaign had ended (28 November, 19:45: 18 idle core-seconds in
 * that stretch cold, 8 warm). A file missing from the list starts first in its group.
 */
const DURATIONS = JSON.parse(readFileSync(new URL('./test/durations.json', import.meta.url), 'utf8')) as Record<string, number>;

/**
 * The order files start in: the CDK file (all CPU for 20-30 s, on one worker), the slowest connected files,
 * then the files that mostly wait, then the other connected files, the unit files last.
 */
class ConversationsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (f: TestSpecification) => relative(f.project.config.root, f.moduleId);
    const seconds = (f: TestSpecification) => DURATIONS[path(f)] ?? Number.POSITIVE_INFINITY;
    // Array.prototype.sort is stable: files of equal (or no) recorded duration keep vitest's order.
    const sorted = (await super.sort(files)).sort((a, b) => Math.sign(seconds(b) - seconds(a)) || 0);
    const of = (name: string) => sorted.filter((f) => f.project.name === name);
    const slowRank = (f: TestSpecification) => SLOWEST_CONNECTED_FILES.indexOf(path(f));
    const slowest = sorted.filter((f) => slowRank(f) !== -1).sort((a, b) => slowRank(a) - slowRank(b));
    const waits = (f: TestSpecification) => WAITS_ON_REAL_TIME.test(path(f)) || WAITS_ON_PROCESSES.includes(path(f));
    const unit = (f: TestSpecification) => path(f).startsWith('test/unit/');
    const others = sorted.filter((f) => !['cdk', 'platform'].includes(f.project.name));
    const platform = of('platform').filter((f) => slowRank(f) === -1);
    return [
      ...of('cdk'),
      ...slowest,
      ...platform.filter(waits),
      ...platform.filter((f) => !waits(f) && !unit(f)),
      ...platform.filter((f) => !waits(f) && unit(f)),
      ...others,
    ];
  }
}

export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    maxWorkers: workers,
    // Test and project modules transformed in one run are kept on disk (node_modules/.experimental-vitest-cache)
    // for the next, keyed by their content: vitest's main process then spends about half its CPU (8.6 s
    // instead of 14-16 s of a whole run), and the unit and CDK files alone 5 % less (docs/testing.md). A
    // fresh clone (CI) starts without it.
    experimental: { fsModuleCache: true },
    sequence: { sequencer: ConversationsFirst },
    // Backstops for a test that hangs, not measures of speed: a slower machine than ours (or ours beside other
    // work) must not turn a slow test red, so no test sets a shorter one. Its waits say what did not happen
    // (WAIT_MS, test/support/progress.ts); the long tests wait on progress (docs/testing.md, "Time").
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // `expect.poll` waits as long as every other wait (WAIT_MS, test/support/progress.ts), not vitest's 1 s:
    // a page's answer on a loaded machine comes later than that.
    expect: { poll: { timeout: WAIT_MS } },
    projects: [
      {
        // The CDK template files run as ONE test file (test/offline/stacks.ts loads each), so in one process:
        // aws-cdk-lib loads once, CloudFormation's validator starts once (about 5 s of CPU) and each stack
        // variant is synthesized once (test/support/stack.ts). Spread over the workers, each worker paid the
        // first two again: the CDK files alone cost 67 s of CPU instead of 24 s (docs/testing.md, 28 November,
        // 08:50). One file starts first, beside the other files; a project of one worker would need a group
        // of its own, which ran before every other file and left part of the second core idle for 20-30 s.
        // They touch no store and no environment. A test that synthesizes a variant is pure CPU: it gets
        // more than the default 30 s.
        extends: true,
        test: {
          name: 'cdk',
          include: ['test/offline/stacks.ts'],
          testTimeout: 300_000,
          globalSetup: ['test/support/cdk-setup.ts'],
        },
      },
      {
        // The connected and unit files share worker processes, one file after another in each: a connected
        // file starts its own platform (own table, queues, port and data directory) and stops it, but
        // loading the platform's modules (about 2.5-3.5 s of CPU: thousands of small modules, which the
        // unit files load too) is paid once per worker, not once per file. The platform drops its
        // process-wide dependencies when it starts (lib/deps.ts). What a file changes in its process is put
        // back after it by the setup file, whatever happened in the file: the environment, the logger's
        // level, fake timers, and what it patched through `vi.spyOn` (a client class's `send` to inject
        // store faults, `process.stdout.write` to read the logs). Until 28 November ten files that patch
        // such globals ran each in a process of its own, and the unit files in processes of their own:
        // 20-25 s of CPU a run spent loading modules again (docs/testing.md).
        extends: true,
        test: {
          name: 'platform',
          include: ['test/connected/**/*.test.ts', 'test/unit/**/*.test.ts'],
          isolate: false,
          // What each file leaves is put back before the next file in the process.
          setupFiles: ['test/support/file-environment.ts'],
          // One DynamoDB Local, s3rver and SQS server for the whole run; each test file gets its own table.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
