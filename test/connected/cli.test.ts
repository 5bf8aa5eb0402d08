/**
 * Invariant: the admin CLI acts on the store of the running `npm start` (found through DATA_DIR, or among
 * the running instances when DATA_DIR is not set) and never silently opens a second one; it prints exactly
 * one JSON line per command, and what it creates or revokes is what the API then honours. A bad command
 * line exits 2 with a one-line error and the usage, a failure exits 1 with a one-line error, help exits 0
 * with the usage on stdout, none prints a stack trace, and a refused command changes nothing.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, runCli } from '../../lib/local/cli/cli.js';
import { creditBalance } from '../../lib/store/workspaces.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CLI = join(ROOT, 'bin/cli.ts');

let t: TestPlatform;
let scratch: string;
/** This file's own registry of running platforms, so platforms of other test files never show up in it. */
let registry: string;

const run = (args: string[], flags: Record<string, string>) =>
  runCli(args, flags, { DATA_DIR: t.dataDir, TABLE_NAME: t.table });

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs bin/cli.ts as a process, the way a person does; `env` replaces DATA_DIR/TABLE_NAME (undefined drops them). */
function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<Ran> {
  const base: Record<string, string | undefined> = { ...process.env, PLATFORM_REGISTRY_DIR: registry, DATA_DIR: t.dataDir, TABLE_NAME: t.table, ...env };
  const clean = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((done) => {
    execFile(TSX, [CLI, ...args], { env: clean, cwd }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

/** {@link cli} in this process through the CLI's `main` (same parse, output and exit code, without the process start-up). */
async function inProcess(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { DATA_DIR: t.dataDir, TABLE_NAME: t.table, ...env }, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
  });
  return { code, stdout, stderr };
}

/** No Node stack frame ("    at fn (file:line)") and no multi-line error dump on stderr. */
function expectNoStack(r: Ran) {
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr).not.toMatch(/Error: .*\n.*node:internal|\[cause\]|ERR_PARSE_ARGS/);
}

function expectUsageError(r: Ran, message: RegExp) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const [first, second] = r.stderr.split('\n');
  expect(first).toMatch(/^error: /);
  expect(first).toMatch(message);
  expect(second).toMatch(/^usage: npm run --silent cli -- /);
  expectNoStack(r);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'vap-cli-'));
  registry = join(scratch, 'registry');
  // The platform registers itself where this file's CLI processes look (lib/local/platform/instances.ts).
  process.env.PLATFORM_REGISTRY_DIR = registry;
  t = await startTestPlatform({ persist: true });
});
afterAll(async () => {
  await t?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('admin CLI', () => {
  it('workspace create prints one JSON line whose key works against the running API', async () => {
    const r = await cli(['workspace', 'create', '--name', 'Acme', '--credits', '25']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'workspaceId']);
    expect(r.stderr).not.toContain(created.apiKey);
    const res = await t.api(created.apiKey, 'GET', `/api/agents?workspaceId=${created.workspaceId}`);
    expect(res.status).toBe(200);
    expect(await creditBalance(t.deps.db, created.workspaceId)).toBe(25);
  });

  it('key create and key revoke', async () => {
    const ws = await run(['workspace', 'create'], { name: 'Beta' });
    const key = await run(['key', 'create'], { workspace: String(ws.workspaceId), name: 'ci' });
    expect(key).toMatchObject({ workspaceId: ws.workspaceId });
    expect((await t.api(String(key.apiKey), 'GET', '/api/agents')).status).toBe(200);
    const revoked = await run(['key', 'revoke'], { workspace: String(ws.workspaceId), key: String(key.keyId) });
    expect(revoked).toMatchObject({ revoked: true });
    expect((await t.api(String(key.apiKey), 'GET', '/api/agents')).status).toBe(401);
    expect((await t.api(String(ws.apiKey), 'GET', '/api/agents')).status).toBe(200);
  });

  it('key create --scope widget: a key the API refuses (403 widget_key) and the widget accepts from its origins', async () => {
    const ws = await run(['workspace', 'create'], { name: 'Widget', credits: '10' });
    const workspace = String(ws.workspaceId);
    const agent = await t.api(String(ws.apiKey), 'POST', '/api/agents', {
      name: 'Ava', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'deepgram', stt_provider: 'deepgram',
      system_prompt: 'You help.', first_message: 'Hello.', workspaceId: workspace,
    });
    const key = await run(['key', 'create'], { workspace, name: 'site', scope: 'widget', agents: agent.body._id, origins: 'https://shop.example, http://127.0.0.1:8080' });
    expect(key).toMatchObject({ scope: 'widget', agentIds: [agent.body._id], origins: ['https://shop.example', 'http://127.0.0.1:8080'] });
    const refused = await t.api(String(key.apiKey), 'GET', '/api/agents');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'widget_key']);
    const session = await fetch(`${t.baseUrl}/widget/session`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://shop.example' },
      body: JSON.stringify({ apiKey: key.apiKey, agentId: agent.body._id }),
    });
    expect(session.status).toBe(200);
    for (const [flags, message] of [
      [{ scope: 'widget', origins: 'https://shop.example' }, /--agents/],
      [{ scope: 'widget', agents: 'agent_x' }, /--origins/],
      [{ scope: 'widget', agents: 'agent_x', origins: 'https://shop.example/path' }, /no path/],
      [{ scope: 'admin' }, /--scope must be full or widget/],
      [{ agents: 'agent_x' }, /go with --scope widget/],
    ] as const) {
      await expect(run(['key', 'create'], { workspace, name: 'bad', ...flags })).rejects.toThrow(message);
    }
  });

  it('credits add moves the balance and refuses nonsense', async () => {
    const ws = await run(['workspace', 'create'], { name: 'Gamma', credits: '10' });
    expect(await run(['credits', 'add'], { workspace: String(ws.workspaceId), amount: '5.5' })).toMatchObject({ balance: 15.5 });
    await expect(run(['credits', 'add'], { workspace: String(ws.workspaceId), amount: '-1' })).rejects.toThrow(/amount/);
    await expect(run(['credits', 'add'], { workspace: 'ws_nope', amount: '1' })).rejects.toThrow(/not found/);
    await expect(run(['key', 'revoke'], { workspace: String(ws.workspaceId), key: 'key_nope' })).rejects.toThrow(/not found/);
    await expect(run(['bogus'], {})).rejects.toThrow(/Unknown command/);
    expect(await creditBalance(t.deps.db, String(ws.workspaceId))).toBe(15.5);
  });
});

describe('admin CLI command line', () => {
  it('--help, -h and help at every level print the usage on stdout and exit 0', async () => {
    const cases: [string[], RegExp, RegExp | undefined][] = [
      [['--help'], /workspace create --name NAME/, undefined],
      [['-h'], /contacts import FILE/, undefined],
      [['help'], /credits add --workspace ID --amount N/, undefined],
      [['key', '--help'], /key revoke --workspace ID --key KEY_ID/, /workspace create/],
      [['help', 'key', 'create'], /^usage: npm run --silent cli -- key create --workspace ID --name NAME/, /key revoke/],
      [['credits', 'add', '-h'], /^usage: npm run --silent cli -- credits add --workspace ID --amount N/, /workspace create/],
      [['workspace', 'create', 'help'], /^usage: npm run --silent cli -- workspace create --name NAME \[--credits N\]/, /key create/],
      [['contacts', 'import', '--help'], /contacts import FILE --workspace ID/, /key create/],
    ];
    // Two as real processes (bin/cli.ts answers help before loading the commands), the rest through main.
    const results = await Promise.all(cases.map(([args], i) => (i < 2 ? cli(args) : inProcess(args))));
    results.forEach((r, i) => {
      const [args, shows, hides] = cases[i]!;
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(shows);
      if (hides) expect(r.stdout, args.join(' ')).not.toMatch(hides);
      expect(r.stderr, args.join(' ')).toBe('');
    });
  });

  it('an unknown command, group or flag, a missing value or argument exits 2 with the usage', async () => {
    const [none, bogus, group, flag, missing, extra, noFile, country] = await Promise.all([
      inProcess([]),
      cli(['bogus']),
      inProcess(['key']),
      cli(['workspace', 'create', '--name', 'X', '--colour', 'red']),
      inProcess(['key', 'create', '--workspace', 'ws_x']),
      inProcess(['workspace', 'create', '--name', 'X', 'extra']),
      inProcess(['contacts', 'import', '--workspace', 'ws_x']),
      inProcess(['contacts', 'import', 'people.csv', '--workspace', 'ws_x', '--default-country', 'ZZ']),
    ]);
    expectUsageError(none, /a command is required/);
    expectUsageError(bogus, /Unknown command "bogus"/);
    expectUsageError(group, /key needs a subcommand; key takes: create, revoke/);
    expectUsageError(flag, /Unknown option '--colour'/);
    expectUsageError(missing, /--name is required/);
    expectUsageError(extra, /Unexpected argument "extra"/);
    expectUsageError(noFile, /contacts import needs a FILE/);
    expectUsageError(country, /--default-country must be an ISO 3166-1 alpha-2 code/);
  });

  it('negative, zero, non-numeric and odd amounts are refused with exit 2 and the balance unchanged', async () => {
    const ws = await t.workspace(7);
    const bad = ['-5', '0', 'abc', '', '1e3', '0x10', ' 5', '-0', 'Infinity', '2000000000'];
    // `--amount -5` as a real process: node's own parser would throw on it (the stack trace this guards against).
    const results = await Promise.all([
      ...bad.map((amount, i) => (i === 0 ? cli : inProcess)(['credits', 'add', '--workspace', ws.workspaceId, '--amount', amount])),
      inProcess(['credits', 'add', '--workspace', ws.workspaceId, '--amount=-5']),
      inProcess(['credits', 'add', '--workspace', ws.workspaceId]),
    ]);
    results.slice(0, bad.length + 1).forEach((r) => expectUsageError(r, /--amount must be a number greater than 0/));
    expectUsageError(results.at(-1)!, /--amount is required/);
    expect(await creditBalance(t.deps.db, ws.workspaceId)).toBe(7);
    const credits = await inProcess(['workspace', 'create', '--name', 'Neg', '--credits', '-1']);
    expectUsageError(credits, /--credits must be a number from 0/);
  });

  it('a failure (unknown workspace or key) exits 1 with one line on stderr and nothing on stdout', async () => {
    const [credits, revoke] = await Promise.all([
      cli(['credits', 'add', '--workspace', 'ws_nope', '--amount', '1']),
      inProcess(['key', 'revoke', '--workspace', 'ws_nope', '--key', 'key_nope']),
    ]);
    for (const r of [credits, revoke]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: .*not found/);
      expectNoStack(r);
    }
  });
});

describe('admin CLI finding the platform', () => {
  it('without DATA_DIR, from another directory, it uses the one running platform', async () => {
    const elsewhere = await mkdtemp(join(scratch, 'cwd-'));
    const r = await cli(['workspace', 'create', '--name', 'Found'], { DATA_DIR: undefined, TABLE_NAME: undefined }, elsewhere);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Using the platform running at ${t.baseUrl}`);
    const created = JSON.parse(r.stdout);
    expect((await t.api(created.apiKey, 'GET', '/api/agents')).status).toBe(200);
    // It opened no store of its own where it was started.
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('with another DATA_DIR while a platform runs, it refuses and prints the command that reaches it', async () => {
    const ws = await t.workspace(3);
    const wrong = join(scratch, 'wrong-dir');
    const r = await cli(['credits', 'add', '--workspace', ws.workspaceId, '--amount', '2'], { DATA_DIR: wrong });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`No platform is running with DATA_DIR=${wrong}`);
    expect(r.stderr).toContain(`DATA_DIR=${t.dataDir} npm run --silent cli -- credits add --workspace ${ws.workspaceId} --amount 2`);
    expectNoStack(r);
    expect(await creditBalance(t.deps.db, ws.workspaceId)).toBe(3);
    await expect(readdir(wrong)).rejects.toThrow(/ENOENT/);
  });

  it('with no platform running, it refuses a DATA_DIR that npm start never used and creates nothing there', async () => {
    const fresh = join(scratch, 'never-used');
    const r = await cli(['workspace', 'create', '--name', 'Lost'], { DATA_DIR: fresh, PLATFORM_REGISTRY_DIR: join(scratch, 'empty-registry') });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: No platform is running, and DATA_DIR=.*never-used holds no store/);
    expect(r.stderr).toContain('npm start');
    expectNoStack(r);
    await expect(readdir(fresh)).rejects.toThrow(/ENOENT/);
  });

  it('believes no record of a platform that is gone: removes it from the registry and opens the DATA_DIR it used', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const registryOfDead = join(scratch, 'dead-registry');
    const usedDir = join(scratch, 'used-before');
    await mkdir(registryOfDead, { recursive: true });
    await mkdir(usedDir, { recursive: true });
    // What a killed `npm start` leaves behind: both records, naming endpoints that no longer answer.
    const record = JSON.stringify({ pid: dead, dynamodb: 'http://127.0.0.1:9', table: 'voice-agents', baseUrl: 'http://127.0.0.1:9', dataDir: usedDir });
    await writeFile(join(registryOfDead, `${dead}-9.json`), record);
    await writeFile(join(usedDir, 'endpoints.json'), record);
    const r = await cli(['workspace', 'create', '--name', 'After a crash'], { DATA_DIR: usedDir, TABLE_NAME: undefined, PLATFORM_REGISTRY_DIR: registryOfDead });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(['apiKey', 'workspaceId']);
    expect(await readdir(registryOfDead)).toEqual([]);
    // The store was opened where npm start keeps it, so the key works when the platform starts again.
    expect(await readdir(join(usedDir, 'dynamodb'))).not.toEqual([]);
  });
});
