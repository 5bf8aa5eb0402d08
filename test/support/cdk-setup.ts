import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the CDK files' cloud assemblies go in this run (test/support/stack.ts, `scratchOutdir`). */
    cdkOutdir: string;
  }
}

let dir: string | undefined;

/** One directory per run for the CDK files' cloud assemblies, removed at the end with all they wrote. */
export async function setup(project: TestProject): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'vap-cdk-'));
  project.provide('cdkOutdir', dir);
}

export async function teardown(): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}
