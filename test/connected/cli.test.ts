/**
 * Invariant: the admin CLI acts on the same store as a running `npm start` with the same DATA_DIR, prints
 * exactly one JSON line per command, and what it creates or revokes is what the API then honours.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../lib/local/cli.js';
import { creditBalance } from '../../lib/store/workspaces.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
const run = (args: string[], flags: Record<string, string>) =>
  runCli(args, flags, { DATA_DIR: t.dataDir, TABLE_NAME: t.table });

beforeAll(async () => {
  t = await startTestPlatform({ persist: true });
});
afterAll(() => t?.stop());

describe('admin CLI', () => {
  it('workspace create prints one JSON line whose key works against the running API', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      'npx',
      ['tsx', 'bin/cli.ts', 'workspace', 'create', '--name', 'Acme', '--credits', '25'],
      { env: { ...process.env, DATA_DIR: t.dataDir, TABLE_NAME: t.table } },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'workspaceId']);
    expect(stderr).not.toContain(created.apiKey);
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

  it('credits add moves the balance and refuses nonsense', async () => {
    const ws = await run(['workspace', 'create'], { name: 'Gamma', credits: '10' });
    expect(await run(['credits', 'add'], { workspace: String(ws.workspaceId), amount: '5.5' })).toMatchObject({ balance: 15.5 });
    await expect(run(['credits', 'add'], { workspace: String(ws.workspaceId), amount: '-1' })).rejects.toThrow(/amount/);
    await expect(run(['credits', 'add'], { workspace: 'ws_nope', amount: '1' })).rejects.toThrow(/not found/);
    await expect(run(['key', 'revoke'], { workspace: String(ws.workspaceId), key: 'key_nope' })).rejects.toThrow(/not found/);
    await expect(run(['bogus'], {})).rejects.toThrow(/Unknown command/);
  });
});
