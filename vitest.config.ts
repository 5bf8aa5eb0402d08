import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit files that fake timers or spy on globals: they run isolated (a leak would reach the next file in a
 * shared worker). A new unit file that does either belongs here.
 */
const ISOLATED_UNIT_FILES = [
  'test/unit/caller-floor.test.ts',
  'test/unit/keypad.test.ts',
  'test/unit/llm-base.test.ts',
  'test/unit/local-schedule.test.ts',
  'test/unit/stt-engine.test.ts',
  'test/unit/voice-pipeline.test.ts',
];

/**
 * Test files run side by side, at least two at once (vitest's default, one fewer than the cores, is one
 * worker on a two-core machine). They are independent (docs/testing.md): each file's platform has its own
 * table, dispatch and webhook queues, port, data directory and instance registry; only the stores started
 * by global setup are shared. TEST_WORKERS overrides the count (1 runs the files one after another).
 */
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    maxWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        // The CDK template files share their worker processes (no isolation): loading aws-cdk-lib, starting
        // CloudFormation's validation engine (a WebAssembly module) and synthesizing the default stack cost
        // about 15 s of CPU each, paid once per worker instead of once per file (test/support/stack.ts keeps
        // each synthesized variant). They touch no store and no environment. Sorted before `platform`, so
        // they start first and the long platform files balance the two workers at the end.
        extends: true,
        test: { name: 'cdk', include: ['test/offline/**/*.test.ts'], isolate: false },
      },
      {
        // Unit files that change no global (no fake timers, spies, mocks or environment) share their worker
        // processes too: most of a unit file's time was loading the modules it tests, which sibling files
        // load as well. The others stay isolated in `platform`.
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: ISOLATED_UNIT_FILES, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'platform',
          include: ['test/connected/**/*.test.ts', ...ISOLATED_UNIT_FILES],
          // One DynamoDB Local, s3rver and SQS server for the whole run; each test file gets its own table.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
