import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dashboard's production build (docs/dashboard.md, "Front end"): a plain static folder, the same files
 * `npm start` serves under /dashboard/ and the CDK stack puts in S3 behind CloudFront.
 *
 * Built with Vite at start-up when the sources changed, not served through Vite's dev middleware: the dev
 * server injects inline scripts (the React refresh preamble, the HMR client) that the page's strict CSP
 * refuses, and what runs locally should be byte for byte what is deployed. The folder is named after a
 * hash of the sources, so a start with unchanged sources reuses it at once and concurrent starts (test
 * processes) never write into a folder another is serving.
 */

/** The dashboard's sources: index.html, the Vite config and src/. */
export const DASHBOARD_ROOT = fileURLToPath(new URL('./', import.meta.url));
/** Where builds go, one folder per source hash (ignored by git). */
export const DASHBOARD_BUILDS = fileURLToPath(new URL('../../../.dashboard-build/', import.meta.url));
/** The URL path the app lives under, locally and behind CloudFront. */
export const DASHBOARD_BASE = '/dashboard/';

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else out.push(path);
  }
  return out.sort();
}

/** The modules outside the dashboard's folder that its pages import (one rule shared with the API). */
const SHARED_SOURCES = [
  fileURLToPath(new URL('../../domain/password-policy.ts', import.meta.url)),
];
/** The typed client the pages call the API with, and its generated types (every file under it). */
const SDK_SOURCES = fileURLToPath(new URL('../../../sdk/src', import.meta.url));

/** A hash of every source file's path and bytes: the build's name. */
export async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [...(await sourceFiles(DASHBOARD_ROOT)), ...SHARED_SOURCES, ...(await sourceFiles(SDK_SOURCES))]) {
    hash.update(relative(DASHBOARD_ROOT, file)).update('\0').update(await readFile(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const exists = (path: string) => stat(path).then(() => true, () => false);

const run = promisify(execFile);

/**
 * `vite build` in a child process with NODE_ENV=production: Vite and the React plugin choose the production
 * JSX runtime and React from NODE_ENV, which a test process sets to "test"; a child keeps the output the same
 * whoever builds, and keeps Vite out of the platform's own process.
 */
async function viteBuild(outDir: string): Promise<void> {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  await run(process.execPath, [vite, 'build', '--config', join(DASHBOARD_ROOT, 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: DASHBOARD_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/**
 * The folder holding the build of the current sources, built first if missing. A build goes to a temporary
 * folder renamed into place, so a reader never sees half a build.
 */
export async function ensureDashboardBuild(): Promise<string> {
  const dir = join(DASHBOARD_BUILDS, await sourceHash());
  if (await exists(join(dir, 'index.html'))) return dir;
  const temp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await mkdir(DASHBOARD_BUILDS, { recursive: true });
  await viteBuild(temp);
  try {
    await rename(temp, dir);
  } catch (error) {
    // Another process finished the same build first: theirs is identical.
    await rm(temp, { recursive: true, force: true });
    if (!(await exists(join(dir, 'index.html')))) throw error;
  }
  await pruneOldBuilds(dir);
  return dir;
}

/** Builds untouched for a day go (a running server holds its build in memory: lib/local/platform/dashboard.ts). */
const STALE_MS = 86_400_000;

async function pruneOldBuilds(keep: string): Promise<void> {
  for (const entry of await readdir(DASHBOARD_BUILDS, { withFileTypes: true })) {
    const path = join(DASHBOARD_BUILDS, entry.name);
    if (path === keep || !entry.isDirectory()) continue;
    const { mtimeMs } = await stat(path);
    if (Date.now() - mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
  }
}
