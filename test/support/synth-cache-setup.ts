import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's synthesized templates are shared between worker processes (test/support/stack.ts). */
    synthCache: string;
  }
}

let dir: string | undefined;

/** One directory per run for the CDK files' synthesized templates, removed at the end. */
export async function setup(project: TestProject): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'vap-synth-'));
  project.provide('synthCache', dir);
}

export async function teardown(): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}
