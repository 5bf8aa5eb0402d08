import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's synthesized templates are shared between processes (test/support/stack.ts). */
    synthCache: string;
  }
}

let dir: string | undefined;
let synthesizer: ChildProcess | undefined;

/**
 * One directory per run for the CDK files' synthesized templates, removed at the end, and the process that
 * synthesizes the listed variants into it while the run starts (test/support/synthesize-variants.ts).
 */
export async function setup(project: TestProject): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'vap-synth-'));
  project.provide('synthCache', dir);
  synthesizer = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./synthesize-variants.ts', import.meta.url)), dir], {
    stdio: 'ignore',
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  // The lowest priority: the tests come first. The CDK files start late in the run (vitest.config.ts);
  // one that asks for a variant the synthesizer is still on waits for it, using no CPU meanwhile.
  setPriority(synthesizer.pid!, 19);
}

export async function teardown(): Promise<void> {
  if (synthesizer && synthesizer.exitCode === null && synthesizer.signalCode === null) {
    const exited = new Promise((done) => synthesizer!.once('exit', done));
    synthesizer.kill();
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
}
