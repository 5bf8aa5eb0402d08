import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run side by side, at least two at once (vitest's default, one fewer than the cores, is one
 * worker on a two-core machine). They are independent (docs/testing.md): each file's platform has its own
 * table, dispatch and webhook queues, port, data directory and instance registry; only the stores started
 * by global setup are shared. TEST_WORKERS overrides the count (1 runs the files one after another).
 */
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local, s3rver and SQS server for the whole run; each test file gets its own table.
    globalSetup: ['test/support/global-setup.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    maxWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
