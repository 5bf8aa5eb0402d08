/// <reference types="vite/client" />
/**
 * The CDK template files, run as one test file (vitest.config.ts, project `cdk`): each `*.test.ts` here is
 * loaded inside a suite named after it. In one process aws-cdk-lib loads once, CloudFormation's validator
 * starts once and each stack variant is synthesized once (test/support/stack.ts), while the other test
 * files run beside it on the other workers. Spread over the workers, each worker paid the first two again;
 * run first in a group of their own (vitest's only other way to keep them in one process), they left part
 * of the second core idle for the run's first 20-30 s while every other file waited (docs/testing.md).
 * A filter by file name does not reach into this file: `npm test -- test/offline -t nag` runs one of them.
 */
import { describe } from 'vitest';

const files = import.meta.glob('./*.test.ts');

for (const [path, load] of Object.entries(files)) {
  describe(path.slice(2), async () => {
    await load();
  });
}
