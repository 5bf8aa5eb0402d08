/**
 * Invariant: `cli contacts import FILE --workspace ID` imports through the same parse and write path as
 * the HTTP upload (same result shape, same duplicate and counter rules) on the store of a running
 * platform, prints exactly one JSON line on stdout with progress on stderr, and takes files over the
 * upload's 4 MiB limit.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_IMPORT_LIMITS } from '../../lib/domain/contact-import/index.js';
import { runCli } from '../../lib/local/cli/cli.js';
import { progressBar } from '../../lib/local/cli/progress.js';
import { csv, usNumber, xlsx } from '../support/contact-files.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let dir: string;

beforeAll(async () => {
  t = await startTestPlatform({ persist: true });
  dir = await mkdtemp(join(tmpdir(), 'vap-import-'));
});
afterAll(async () => {
  await t?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sink = () => {
  const out: string[] = [];
  return { out, write: (s: string) => out.push(s), isTTY: false };
};

describe('cli contacts import', () => {
  it('imports an .xlsx through bin/cli.ts: one JSON line on stdout, progress on stderr', async () => {
    const ws = await t.workspace();
    const file = join(dir, 'people.xlsx');
    await writeFile(file, await xlsx([['contactName', 'phoneNumber'], ['Ann', 4155552671], ['Bob', '+14155552672'], ['Ann again', 4155552671], ['Cy', 'nope']]));
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      ['tsx', 'bin/cli.ts', 'contacts', 'import', file, '--workspace', ws.workspaceId, '--default-country', 'US'],
      { env: { ...process.env, DATA_DIR: t.dataDir, TABLE_NAME: t.table } },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      imported: 2,
      skipped: 1,
      errors: [{ row: 5, column: 'phoneNumber', value: 'nope', message: 'is not a valid phone number' }],
    });
    expect(stderr).toContain('100% 2/2');
    const listed = await t.api(ws.apiKey, 'GET', '/api/contacts');
    expect(listed.body.total).toBe(2);
  });

  it('takes a file over the upload limit, and a repeat imports nothing', async () => {
    const ws = await t.workspace();
    const columns = Array.from({ length: 48 }, (_, i) => `f${i}`);
    const wide = 'w'.repeat(1_000);
    const lines = ['contactName,phoneNumber,' + columns.join(','), ...Array.from({ length: 100 }, (_, i) => `P${i},${usNumber(i)},${columns.map(() => wide).join(',')}`)];
    const file = join(dir, 'wide.csv');
    const bytes = csv(lines);
    expect(bytes.length).toBeGreaterThan(HTTP_IMPORT_LIMITS.maxFileBytes);
    await writeFile(file, bytes);
    const run = () =>
      runCli(['contacts', 'import', file], { workspace: ws.workspaceId }, { DATA_DIR: t.dataDir, TABLE_NAME: t.table }, { stderr: sink() });
    expect(await run()).toEqual({ imported: 100, skipped: 0, errors: [] });
    expect(await run()).toEqual({ imported: 0, skipped: 100, errors: [] });
    expect((await t.api(ws.apiKey, 'GET', '/api/contacts')).body.total).toBe(100);
  });

  it('refuses a missing file, an unknown workspace and a bad country before importing', async () => {
    const env = { DATA_DIR: t.dataDir, TABLE_NAME: t.table };
    const file = join(dir, 'one.csv');
    await writeFile(file, csv(['contactName,phoneNumber', 'Ann,+14155552671']));
    await expect(runCli(['contacts', 'import'], { workspace: 'ws_x' }, env, { stderr: sink() })).rejects.toThrow(/FILE/);
    await expect(runCli(['contacts', 'import', join(dir, 'absent.csv')], { workspace: 'ws_x' }, env, { stderr: sink() })).rejects.toThrow(/ENOENT/);
    await expect(runCli(['contacts', 'import', file], { workspace: 'ws_nope' }, env, { stderr: sink() })).rejects.toThrow(/not found/);
    const ws = await t.workspace();
    await expect(runCli(['contacts', 'import', file], { workspace: ws.workspaceId, 'default-country': 'ZZ' }, env, { stderr: sink() })).rejects.toThrow(/country/);
    expect((await t.api(ws.apiKey, 'GET', '/api/contacts')).body.total).toBe(0);
  });

  it('the progress bar redraws in place on a terminal and prints tenths in a log', () => {
    let now = 0;
    const tty = { out: [] as string[], write(s: string) { this.out.push(s); }, isTTY: true };
    const bar = progressBar(tty, () => now);
    for (let i = 0; i <= 10; i += 1) {
      now += 10;
      bar.update(i, 10, 'contacts');
    }
    bar.finish();
    expect(tty.out.every((s) => s.startsWith('\r'))).toBe(true);
    expect(tty.out.length).toBeLessThan(6);
    expect(tty.out.at(-1)).toContain('100% 10/10 contacts\n');
    const log = sink();
    const plain = progressBar(log);
    for (let i = 0; i <= 1000; i += 1) plain.update(i, 1000, 'contacts');
    plain.finish();
    expect(log.out).toHaveLength(11);
    expect(log.out.every((s) => s.endsWith('\n') && !s.includes('\r'))).toBe(true);
  });
});
