/**
 * `npm test`: the typecheck and the test files at the same time. Run one after the other they cost the
 * typecheck's ~25 s of wall clock on top of the suite; side by side the typecheck uses the CPU the suite
 * leaves idle while its conversations wait on real-time audio. It runs at the lowest priority: at normal
 * priority it took a core from the run's start-up (stores, vitest, the first workers), whose end every test
 * waits for: the first file began at 24-27 s instead of 12-15 s, and whole runs took 192-196 s instead of
 * 167-185 s (docs/testing.md); once the tests have ended, it is back at normal priority. Its report is
 * printed after the tests' (its lines would land in the middle of vitest's otherwise), and the command
 * fails if either fails.
 *
 * The run's stores (DynamoDB Local, the S3 and SQS stand-ins, cognito-local) start here, while vitest loads
 * its configuration and projects, instead of after it in global setup: the two took about 6 s each, one
 * after the other. Vitest's global setup reads their addresses from TEST_STORES_FILE.
 * Arguments go to vitest (`npm test -- test/unit`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startStores } from '../lib/local/platform/stores.js';
import { ensureDashboardBuild } from '../lib/web/dashboard/build.js';
import { runStores } from '../test/support/global-setup.js';

const require = createRequire(import.meta.url);

/** A package's command-line script, as its package.json names it (the `exports` maps hide the files). */
function bin(pkg: string, name: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin: bins } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), bins[name]!);
}

interface Running {
  readonly done: Promise<{ code: number; output: string }>;
  /**
   * Sets the nice value of the process and of the processes it started (the typecheck's script runs the
   * native compiler as a child), every thread of them; where this user may not raise a priority (not
   * root), nothing changes.
   */
  renice(priority: number): void;
}

/**
 * The threads of a process and of its descendants, from Linux's /proc, where a nice value belongs to each
 * thread (the native compiler's work runs on threads other than its first); just the process where /proc
 * is not readable.
 */
function threadsOfTree(pid: number): number[] {
  let threads: number[] = [];
  try {
    threads = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    // Not Linux, or the process has ended.
    return [pid];
  }
  const children = threads.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return [...threads, ...children.flatMap(threadsOfTree)];
}

/**
 * Runs a Node script to its end; its output is passed through, or kept when `quiet`. `priority` is its nice
 * value (19: the lowest).
 */
function run(script: string, args: string[], quiet: boolean, env: Record<string, string> = {}, priority = 0): Running {
  const child = spawn(process.execPath, [script, ...args], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
  const renice = (value: number) => {
    for (const pid of threadsOfTree(child.pid!)) {
      try {
        setPriority(pid, value);
      } catch {
        // Gone already, or not ours to raise: it runs on at the priority it has.
      }
    }
  };
  if (priority) renice(priority);
  const done = new Promise<{ code: number; output: string }>((resolve) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
  return { done, renice };
}

// The AWS SDK's clients the stores use warn on every start about Node 20's end of support (as `npm start` does).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * What the typecheck learned in the last run (tsc's `--incremental`), beside vitest's cache in node_modules:
 * a run with nothing changed since takes about 4 s of CPU instead of 9 s. tsc decides from each file's
 * content what to check again, so a stale file gives no stale verdict; a fresh clone (CI) checks everything.
 * The typecheck is TypeScript 7's native compiler (the `typescript-native` alias; 9 s of CPU from nothing
 * where 5.9 took 25 s). `typescript` itself stays at 5.9 for the tools that call its JavaScript API, which
 * 7.0 does not have: Stryker rewrites tsconfig.json in its sandbox with it.
 */
const TYPECHECK_STATE = 'node_modules/.cache/voice-agent-platform/typecheck.tsbuildinfo';

/**
 * The typecheck on one thread (`--singleThreaded`): beside the suite, which keeps every core busy, what it
 * costs is CPU taken from the tests, and its threads cost more of it than they save: 5.3 core-seconds from
 * nothing instead of 9.9 (3.3 instead of 4.0 with its state), and no longer even in wall clock on two cores
 * (4.2 s against 5.0). `npm run typecheck`, run alone, keeps its threads.
 */
const TYPECHECK_ARGS = ['--noEmit', '-p', '.', '--incremental', '--tsBuildInfoFile', TYPECHECK_STATE, '--singleThreaded'];

const storesDir = mkdtempSync(join(tmpdir(), 'vap-stores-'));
const storesFile = join(storesDir, 'stores.json');
/** Written whole (a rename), so global setup never reads half a file. */
const publish = (content: unknown) => {
  writeFileSync(`${storesFile}.tmp`, JSON.stringify(content));
  renameSync(`${storesFile}.tmp`, storesFile);
};
const stores = startStores(undefined, 'voice-agents-recordings').then(
  (started) => {
    publish({ stores: runStores(started) });
    return started;
  },
  (error: Error) => {
    publish({ error: error.message });
    return undefined;
  },
);

// The dashboard's build, made once here when its sources changed (a fresh clone): every connected file's
// platform serves it, and the eight workers that start together each ran `vite build` when none existed
// (5 s of CPU in a first run). A build that fails here fails again, with its message, in the first file.
void ensureDashboardBuild().catch(() => undefined);

const typechecking = run(bin('typescript-native', 'tsc'), TYPECHECK_ARGS, true, {}, 19);
const tests = await run(bin('vitest', 'vitest'), ['run', ...process.argv.slice(2)], false, { TEST_STORES_FILE: storesFile }).done;
// The tests are over: what is left of the typecheck takes CPU from nobody of ours, and at the lowest priority
// any busy neighbour held it back (beside three busy loops it ended 39 s after the tests, 28 November).
typechecking.renice(0);
await (await stores)?.stop();
const typecheck = await typechecking.done;
rmSync(storesDir, { recursive: true, force: true });

if (typecheck.code !== 0) process.stderr.write(`\nTypecheck failed (tsc --noEmit -p .):\n${typecheck.output}`);
else process.stdout.write('\nTypecheck passed (tsc --noEmit -p .).\n');
process.exitCode = typecheck.code || tests.code;
