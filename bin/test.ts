/**
 * `npm test`: the typecheck and the test files at the same time. Run one after the other they cost the
 * typecheck's ~25 s of wall clock on top of the suite; side by side the typecheck uses the CPU the suite
 * leaves idle while its conversations wait on real-time audio. The typecheck's report is printed after the
 * tests' (its lines would land in the middle of vitest's otherwise), and the command fails if either fails.
 * Arguments go to vitest (`npm test -- test/unit`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A package's command-line script, as its package.json names it (the `exports` maps hide the files). */
function bin(pkg: string, name: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), bins[name]!);
}

/** Runs a Node script to its end; its output is passed through, or kept when `quiet`. */
function run(script: string, args: string[], quiet: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const [typecheck, tests] = await Promise.all([
  run(bin('typescript', 'tsc'), ['--noEmit', '-p', '.'], true),
  run(bin('vitest', 'vitest'), ['run', ...process.argv.slice(2)], false),
]);

if (typecheck.code !== 0) process.stderr.write(`\nTypecheck failed (tsc --noEmit -p .):\n${typecheck.output}`);
else process.stdout.write('\nTypecheck passed (tsc --noEmit -p .).\n');
process.exitCode = typecheck.code || tests.code;
