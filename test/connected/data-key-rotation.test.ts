/**
 * Invariant: rotating the data key loses nothing (docs/data-key.md). Every secret the
 * platform seals (tool header values, webhook signing secrets, provider keys; BYOT auth tokens share the box) written
 * under version 1, including before versions existed, still opens once version 2 is added; new writes are
 * sealed with version 2; the local key file takes the versioned keyring; and a stream token signed with
 * the old version still verifies during the rollout.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signStreamToken, STREAM_TOKEN_KEY_PURPOSE, verifyStreamToken } from '../../lib/domain/stream-token.js';
import { issueStandinKey } from '../../lib/local/standins/accounts.js';
import { key } from '../../lib/store/model.js';
import { putProviderKey, workspaceProviderKeys } from '../../lib/store/provider-keys.js';
import { addKeyVersion, createSecretBox, loadOrCreateKeyFile, writeKeyFile, type SecretBox } from '../../lib/store/secret-box.js';
import { getTool, saveTool } from '../../lib/store/tools.js';
import { getWebhookEndpoint } from '../../lib/store/webhooks.js';
import { main } from '../../lib/local/cli/cli.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };
/** The platform's own box (version 1 only, from its key file) and the same keyring with version 2 added. */
let v1: SecretBox;
let v2: SecretBox;

beforeAll(async () => {
  // The webhook endpoint below is on loopback, which only an allow-listed host may be.
  process.env.TOOL_ALLOWED_HOSTS = '127.0.0.1:9';
  t = await startTestPlatform();
  ws = await t.workspace(10);
  const ring = await loadOrCreateKeyFile(t.deps.config.SECRET_KEY_FILE!);
  v1 = createSecretBox(ring);
  v2 = createSecretBox(addKeyVersion(ring));
});
afterAll(async () => {
  await t?.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const item = async (k: { pk: string; sk: string }) =>
  (await t.deps.db.doc.send(new GetCommand({ TableName: t.deps.db.table, Key: k, ConsistentRead: true }))).Item!;

/** An HTTP tool created through the API (so its header values are sealed by the running platform). */
async function httpTool(headers: Record<string, string>) {
  const tool = await t.api(ws.apiKey, 'POST', '/api/tools', {
    name: 'Order lookup',
    type: 'http',
    description: 'Looks an order up',
    config: { method: 'GET', url: 'https://api.example.com/orders/{order_id}', headers },
    parameters: [{ name: 'order_id', description: 'the order', required: true }],
  });
  expect(tool.status).toBe(201);
  return tool;
}

describe('after version 2 is added', () => {
  it('tool headers, webhook secrets and provider keys sealed under v1 open; rewritten, they are sealed with v2', async () => {
    const tool = await httpTool({ Authorization: 'Bearer order-secret-1' });
    const hook = await t.api(ws.apiKey, 'POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook', eventTypes: ['call.ended'] });
    expect(hook.status).toBe(201);
    const vendorKey = issueStandinKey('openai');
    expect((await t.api(ws.apiKey, 'PUT', '/api/provider-keys/openai', { apiKey: vendorKey })).status).toBe(200);

    // As stored: every sealed value names version 1.
    const storedTool = await item(key.tool(ws.workspaceId, tool.body._id));
    expect(String(storedTool.config.headers.Authorization)).toMatch(/^v1:/);
    expect(String((await item(key.webhookEndpoint(ws.workspaceId, hook.body._id))).secret)).toMatch(/^v1:/);
    expect(String((await item(key.providerKey(ws.workspaceId, 'openai'))).keySealed)).toMatch(/^v1:/);

    // The rotated keyring opens all of them.
    const opened = await getTool(t.deps.db, v2, ws.workspaceId, tool.body._id);
    expect(opened.config?.headers).toEqual({ Authorization: 'Bearer order-secret-1' });
    expect((await getWebhookEndpoint(t.deps.db, v2, ws.workspaceId, hook.body._id)).secret).toBe(hook.body.secret);
    expect(await workspaceProviderKeys(t.deps.db, v2, ws.workspaceId)).toEqual({ openai: vendorKey });

    // New writes use v2, and open with the rotated keyring only.
    await saveTool(t.deps.db, v2, opened);
    const resealed = String((await item(key.tool(ws.workspaceId, tool.body._id))).config.headers.Authorization);
    expect(resealed).toMatch(/^v2:/);
    expect(v2.open(resealed, ws.workspaceId)).toBe('Bearer order-secret-1');
    expect(() => v1.open(resealed, ws.workspaceId)).toThrow(/version 2/);
    const next = issueStandinKey('openai');
    await putProviderKey(t.deps.db, v2, ws.workspaceId, 'openai', next, next.slice(-4), new Date().toISOString());
    expect(String((await item(key.providerKey(ws.workspaceId, 'openai'))).keySealed)).toMatch(/^v2:/);
    expect(await workspaceProviderKeys(t.deps.db, v2, ws.workspaceId)).toEqual({ openai: next });
  });

  it('a stream token signed under v1 verifies with the rotated keyring\'s keys; one signed under v2 does too', () => {
    const claims = { callSid: 'CA0', workspaceId: ws.workspaceId, callId: 'call_1' };
    const old = signStreamToken(claims, v1.deriveKey(STREAM_TOKEN_KEY_PURPOSE));
    const fresh = signStreamToken(claims, v2.deriveKey(STREAM_TOKEN_KEY_PURPOSE));
    expect(verifyStreamToken(old, v2.deriveKeys(STREAM_TOKEN_KEY_PURPOSE)).ok).toBe(true);
    expect(verifyStreamToken(fresh, v2.deriveKeys(STREAM_TOKEN_KEY_PURPOSE)).ok).toBe(true);
    // A process still on v1 alone does not accept v2's signature: why a rollout adds keys before using them.
    expect(verifyStreamToken(fresh, v1.deriveKeys(STREAM_TOKEN_KEY_PURPOSE)).ok).toBe(false);
  });
});

describe('the local key file', () => {
  it('`cli -- data-key rotate` adds a version to the running platform\'s key file, which still opens what it sealed', async () => {
    const tool = await httpTool({ 'x-api-key': 'crm-secret-2' });
    const out: string[] = [];
    const code = await main(['data-key', 'rotate'], { DATA_DIR: t.dataDir, TABLE_NAME: t.table }, { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true } });
    expect(code).toBe(0);
    const printed = JSON.parse(out.join('')) as Record<string, unknown>;
    expect(printed).toMatchObject({ current: 2, versions: [1, 2] });
    // Versions only: no key in what it prints.
    expect(Object.keys(printed).sort()).toEqual(['current', 'file', 'restart', 'versions']);
    const restarted = createSecretBox(await loadOrCreateKeyFile(t.deps.config.SECRET_KEY_FILE!));
    expect(restarted.currentVersion).toBe(2);
    expect((await getTool(t.deps.db, restarted, ws.workspaceId, tool.body._id)).config?.headers).toEqual({ 'x-api-key': 'crm-secret-2' });
  });

  it('holds one key at first, and the versioned keyring once rotated; both read back to the same keys', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vap-key-'));
    try {
      const path = join(dir, 'secret.key');
      const first = await loadOrCreateKeyFile(path);
      expect(first.current).toBe(1);
      const sealed = createSecretBox(first).seal('kept', 'ws_1');
      await writeKeyFile(path, addKeyVersion(first));
      expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ current: 2 });
      const reread = createSecretBox(await loadOrCreateKeyFile(path));
      expect(reread.currentVersion).toBe(2);
      expect(reread.open(sealed, 'ws_1')).toBe('kept');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
