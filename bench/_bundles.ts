/**
 * Lambda bundle size and module-init time, measured on the very bundles the CDK stack would deploy
 * (lib/infra/bundling.ts), each imported in a fresh Node process as a cold Lambda would.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterBundlingCommands, BUNDLE_OPTIONS, type BundleFile, type BundleModule } from '../lib/infra/bundling.js';

/** What was measured for one handler entry. */
export interface BundleReport {
  /** The entry as the route table names it, e.g. functions/agents/get.ts. */
  readonly entry: string;
  readonly file?: string;
  readonly bytes?: number;
  /** The modules built beside the bundle (loaded on first use, not at init), with their sizes. */
  readonly modules?: readonly { file: string; bytes: number }[];
  /** Bytes of the largest inputs, to explain a big bundle. */
  readonly largestInputs?: readonly { path: string; bytes: number }[];
  /** Wall-clock milliseconds of each cold import. */
  readonly initMs?: readonly number[];
  /**
   * CPU milliseconds (user + system) of each cold import. On a shared machine wall time includes waiting
   * for a core; CPU time is what the import itself costs, and what a dedicated core would take.
   */
  readonly initCpuMs?: readonly number[];
  /** Why the entry could not be bundled or imported. */
  readonly problem?: string;
}

/** A directory-safe name for an entry: functions/agents/get.ts -> agents-get. */
export const bundleName = (entry: string): string =>
  entry.replace(/^functions\//, '').replace(/\.[cm]?[jt]s$/, '').replace(/[^a-zA-Z0-9]+/g, '-');

const run = promisify(execFile);

/**
 * Bundles one entry with the deployed options into `outDir/index.mjs`, then completes the folder with the
 * stack's own afterBundling commands (lib/infra/bundling.ts): the files and modules `extras` names
 * (lib/infra/constructs/api-function.ts, bundleExtras), as the deployed asset has them.
 */
export async function bundleEntry(
  projectRoot: string,
  entry: string,
  outDir: string,
  extras: { readonly files?: readonly BundleFile[]; readonly modules?: readonly BundleModule[] } = {},
): Promise<BundleReport> {
  const source = join(projectRoot, entry);
  try {
    await access(source);
  } catch {
    return { entry, problem: 'entry file does not exist (yet)' };
  }
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, 'index.mjs');
  try {
    const result = await build({
      ...BUNDLE_OPTIONS,
      external: [...BUNDLE_OPTIONS.external],
      mainFields: [...BUNDLE_OPTIONS.mainFields],
      banner: { js: BUNDLE_OPTIONS.banner },
      entryPoints: [source],
      outfile: file,
      bundle: true,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: projectRoot,
    });
    const output = Object.values(result.metafile.outputs)[0]!;
    const largestInputs = Object.entries(output.inputs)
      .map(([path, info]) => ({ path, bytes: info.bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5);
    for (const command of afterBundlingCommands(projectRoot, outDir, extras)) await run('bash', ['-c', command]);
    const modules = await Promise.all(
      (extras.modules ?? []).map(async ({ to }) => ({ file: to, bytes: (await stat(join(outDir, to))).size })),
    );
    return { entry, file, bytes: output.bytes, modules, largestInputs };
  } catch (error) {
    return { entry, problem: `bundling failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

/**
 * The child's whole program: time the import of the bundle and check it exports a handler. Only the
 * import is timed; Node's own start-up is the same for every Lambda and is not the bundle's doing.
 */
const INIT_PROBE = `
const c0 = process.cpuUsage();
const t0 = performance.now();
const mod = await import(process.argv[1]);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
if (typeof mod.handler !== 'function') { console.error('no handler export'); process.exit(3); }
console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** One cold import in a fresh process with nothing in the environment but PATH (config defaults only). */
function initOnce(file: string): Promise<{ ms: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', INIT_PROBE, pathToFileURL(file).href],
      // A hung import should fail this entry, not the whole run; 30 s is far beyond any plausible init.
      { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message.split('\n')[0]} ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop()!) as { ms: number; cpuMs: number });
        } catch {
          reject(new Error(`unexpected output: ${stdout.slice(0, 200)}`));
        }
      },
    );
  });
}

/** Imports the bundle `runs` times, each in a new process, sequentially so they do not compete for CPU. */
export async function measureInit(report: BundleReport, runs: number): Promise<BundleReport> {
  if (!report.file) return report;
  const initMs: number[] = [];
  const initCpuMs: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const once = await initOnce(report.file);
      initMs.push(once.ms);
      initCpuMs.push(once.cpuMs);
    }
  } catch (error) {
    return { ...report, problem: `import failed: ${(error as Error).message}` };
  }
  return { ...report, initMs, initCpuMs };
}

/** The median of a small sample. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
