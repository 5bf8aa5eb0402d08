/**
 * Setup file of the `platform` project, whose test files share worker processes one after another: the
 * environment a file leaves is put back as the file found it, so a setting a file makes for its own platform
 * (an allowed tool host, a raised limit, a retry schedule) never reaches the next file in that process. The
 * process-wide deps built from the file's environment are dropped with it (setProcessEnvironment).
 *
 * Runs after the file's own `afterAll` hooks (vitest runs after-hooks in the reverse order of registration,
 * and this file registers first), so after its platform has stopped and put back its own variables.
 */
import { afterAll } from 'vitest';
import { setProcessEnvironment } from '../../lib/deps.js';

const before = { ...process.env } as Record<string, string>;

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  setProcessEnvironment(before);
});
