/**
 * Setup file of the `platform` project, whose test files share worker processes one after another: the
 * environment a file leaves is put back as the file found it, so a setting a file makes for its own platform
 * (an allowed tool host, a raised limit, a retry schedule) never reaches the next file in that process. The
 * process-wide deps built from the file's environment are dropped with it (setProcessEnvironment), and the
 * logger's level follows the restored LOG_LEVEL. Timers a file faked, globals and variables it stubbed
 * (`vi.stubGlobal`, `vi.stubEnv`) and what it patched through `vi.spyOn` (a client class's `send` in
 * test/support/faults.ts, `process.stdout.write`, `Math.random`) are put back too, even when a test that
 * failed or timed out never reached its own cleanup: a fault left injected would fail the next file's
 * platform, fake timers would stall it. (Vitest 4 restores `vi.spyOn` spies at the end of a file in a shared
 * worker as well, as seen on 28 November with a file that left a fault injected; this does not depend on
 * it.) The unit files share these workers and this file too.
 *
 * Runs after the file's own `afterAll` hooks (vitest runs after-hooks in the reverse order of registration,
 * and this file registers first), so after its platform has stopped and put back its own variables.
 *
 * With TEST_CPU_LOG=<file>, each file's CPU time in its worker process (the platform runs in that process,
 * stand-ins included; DynamoDB Local and Chromium do not) is appended there: where a run's CPU goes.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, expect, vi } from 'vitest';
import { setProcessEnvironment } from '../../lib/deps.js';
import { setLogLevelFromEnvironment } from '../../lib/observability/log.js';

const before = { ...process.env } as Record<string, string>;
const cpuAtStart = process.cpuUsage();

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  setProcessEnvironment(before);
  setLogLevelFromEnvironment();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  const log = process.env.TEST_CPU_LOG;
  if (log) {
    const used = process.cpuUsage(cpuAtStart);
    appendFileSync(log, `${((used.user + used.system) / 1e6).toFixed(2)}\t${expect.getState().testPath ?? ''}\n`);
  }
});
