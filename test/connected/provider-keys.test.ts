/**
 * Invariant: a workspace's own vendor keys go in once and never come back out: set answers and lists show
 * the vendor, the last four characters and dates only; the key is sealed at rest (bound to the workspace)
 * and appears in no response and no log line. A key test asks the vendor (here its loopback stand-in, which
 * checks the key against its account books) and tells a good key from a bad one for every vendor. Refused
 * requests change nothing; only a full API key of the workspace reaches its keys, and no workspace sees,
 * tests or deletes another's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PROVIDER_KEY_VENDORS, type ProviderKeyVendor } from '../../lib/domain/provider-key.js';
import { issueStandinKey } from '../../lib/local/standins/accounts.js';
import { key } from '../../lib/store/model.js';
import { createApiKey } from '../../lib/store/workspaces.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let ws: { workspaceId: string; apiKey: string };
/** Every line this process logged while the suite ran (the platform's handlers run in it). */
const logged: string[] = [];
/** Every key value a test sent, to look for in responses and logs. */
const sentKeys: string[] = [];
const restore: (() => void)[] = [];

function captureLogs(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    const spy = vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return write(chunk, ...rest);
    }) as typeof stream.write);
    restore.push(() => spy.mockRestore());
  }
}

beforeAll(async () => {
  // Everything the handlers log, debug included (the suite default is silent), so the leak check sees it all.
  process.env.LOG_LEVEL = 'debug';
  captureLogs();
  t = await startTestPlatform();
  ws = await t.workspace(10);
});
afterAll(async () => {
  for (const r of restore) r();
  await t?.stop();
  process.env.LOG_LEVEL = 'silent';
});

const path = (provider: string) => `/api/provider-keys/${provider}`;
const put = (apiKey: string, provider: string, body: unknown) => t.api(apiKey, 'PUT', path(provider), body);
const list = async (apiKey = ws.apiKey) => {
  const res = await t.api(apiKey, 'GET', '/api/provider-keys');
  expect(res.status).toBe(200);
  return res.body.data as Record<string, unknown>[];
};
/** A key the vendor's stand-in knows (an account there), noted for the leak checks. */
const goodKey = (vendor: ProviderKeyVendor) => {
  const value = issueStandinKey(vendor);
  sentKeys.push(value);
  return value;
};
const badKey = (vendor: string) => {
  const value = `${vendor}-not-an-account-${Math.random().toString(36).slice(2)}`;
  sentKeys.push(value);
  return value;
};

describe('setting and listing', () => {
  it('answers and lists only the vendor, the last four characters and dates; the table holds it sealed', async () => {
    const value = goodKey('deepgram');
    const set = await put(ws.apiKey, 'deepgram', { apiKey: value, workspaceId: ws.workspaceId });
    expect(set.status).toBe(200);
    expect(Object.keys(set.body).sort()).toEqual(['createdAt', 'last4', 'provider', 'updatedAt']);
    expect(set.body).toMatchObject({ provider: 'deepgram', last4: value.slice(-4) });
    expect(JSON.stringify(set.body)).not.toContain(value.slice(0, -4));

    const listed = await list();
    expect(listed).toEqual([set.body]);

    const stored = await t.deps.db.doc.send(new GetCommand({ TableName: t.deps.db.table, Key: key.providerKey(ws.workspaceId, 'deepgram') }));
    const item = stored.Item!;
    expect(Object.values(item).some((v) => typeof v === 'string' && v.includes(value))).toBe(false);
    expect(t.deps.secrets.open(item.keySealed as string, ws.workspaceId)).toBe(value);
    // Bound to its workspace: the sealed value does not open as another's.
    expect(() => t.deps.secrets.open(item.keySealed as string, 'ws_other')).toThrow();
  });

  it('replacing a key keeps its creation date, shows the new last four and forgets the old test', async () => {
    const first = goodKey('cartesia');
    const created = await put(ws.apiKey, 'cartesia', { apiKey: first });
    expect((await t.api(ws.apiKey, 'POST', `${path('cartesia')}/test`)).body.result).toBe('valid');
    const second = badKey('cartesia');
    const replaced = await put(ws.apiKey, 'cartesia', { apiKey: second });
    expect(replaced.status).toBe(200);
    expect(replaced.body.createdAt).toBe(created.body.createdAt);
    expect(replaced.body.last4).toBe(second.slice(-4));
    expect(replaced.body.lastTestResult).toBeUndefined();
    const entry = (await list()).find((k) => k.provider === 'cartesia')!;
    expect(entry.lastTestedAt).toBeUndefined();
    expect((await t.api(ws.apiKey, 'POST', `${path('cartesia')}/test`)).body.result).toBe('invalid');
  });
});

describe('testing a key with the vendor', () => {
  it.each(PROVIDER_KEY_VENDORS)('%s: a key of an account is valid, any other is invalid, and the verdict is kept on the key', async (vendor) => {
    const own = await t.workspace(0);
    expect((await put(own.apiKey, vendor, { apiKey: goodKey(vendor) })).status).toBe(200);
    const good = await t.api(own.apiKey, 'POST', `${path(vendor)}/test`);
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ provider: vendor, result: 'valid' });
    expect((await list(own.apiKey))[0]).toMatchObject({ provider: vendor, lastTestResult: 'valid', lastTestedAt: good.body.testedAt });

    expect((await put(own.apiKey, vendor, { apiKey: badKey(vendor) })).status).toBe(200);
    const bad = await t.api(own.apiKey, 'POST', `${path(vendor)}/test`);
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ provider: vendor, result: 'invalid' });
    expect([401, 403, 400]).toContain(bad.body.vendorStatus);
    expect((await list(own.apiKey))[0]).toMatchObject({ lastTestResult: 'invalid' });
  });

  it('a vendor without a key of the workspace is 404', async () => {
    const res = await t.api(ws.apiKey, 'POST', `${path('anthropic')}/test`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('deleting', () => {
  it('removes the key: gone from the list, its test and a second delete are 404', async () => {
    expect((await put(ws.apiKey, 'elevenlabs', { apiKey: goodKey('elevenlabs') })).status).toBe(200);
    const removed = await t.api(ws.apiKey, 'DELETE', path('elevenlabs'));
    expect(removed.status).toBe(204);
    expect((await list()).map((k) => k.provider)).not.toContain('elevenlabs');
    expect((await t.api(ws.apiKey, 'POST', `${path('elevenlabs')}/test`)).status).toBe(404);
    expect((await t.api(ws.apiKey, 'DELETE', path('elevenlabs'))).status).toBe(404);
  });
});

describe('refusals change nothing', () => {
  it('bad vendors, bad keys, unknown fields, another workspace, no key and a widget key are refused; the list stays as it was', async () => {
    const before = await list();
    const value = badKey('openai');
    const widget = await createApiKey(t.deps.db, ws.workspaceId, 'site widget', { agentIds: [], origins: ['https://shop.example'] });
    const other = await t.workspace(0);
    const refusals: [Promise<{ status: number; body: any }>, number][] = [
      [put(ws.apiKey, 'twilio', { apiKey: value }), 400],
      [put(ws.apiKey, 'OpenAI', { apiKey: value }), 400],
      [put(ws.apiKey, 'openai', { apiKey: 'short' }), 400],
      [put(ws.apiKey, 'openai', { apiKey: `${value} with spaces` }), 400],
      [put(ws.apiKey, 'openai', { apiKey: 'k'.repeat(513) }), 400],
      [put(ws.apiKey, 'openai', { apiKey: value, extra: true }), 400],
      [put(ws.apiKey, 'openai', {}), 400],
      [put(ws.apiKey, 'openai', { apiKey: value, workspaceId: other.workspaceId }), 403],
      [put('', 'openai', { apiKey: value }), 401],
      [put(widget.apiKey, 'openai', { apiKey: value }), 403],
      [t.api(widget.apiKey, 'GET', '/api/provider-keys'), 403],
      [t.api(ws.apiKey, 'DELETE', path('speechmatics')), 404],
      [t.api(ws.apiKey, 'POST', `${path('nope')}/test`), 400],
    ];
    for (const [pending, status] of refusals) {
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.code).toMatch(/^[a-z_]+$/);
      expect(JSON.stringify(res.body)).not.toContain(value);
    }
    expect(await list()).toEqual(before);
  });
});

describe('workspaces', () => {
  it('no workspace sees, tests, replaces through or deletes another workspace\'s key', async () => {
    const a = await t.workspace(0);
    const b = await t.workspace(0);
    const value = goodKey('google');
    expect((await put(a.apiKey, 'google', { apiKey: value })).status).toBe(200);
    const before = await list(a.apiKey);

    expect(await list(b.apiKey)).toEqual([]);
    expect((await t.api(b.apiKey, 'GET', `/api/provider-keys?workspaceId=${a.workspaceId}`)).status).toBe(403);
    expect((await t.api(b.apiKey, 'POST', `${path('google')}/test`)).status).toBe(404);
    expect((await t.api(b.apiKey, 'DELETE', path('google'))).status).toBe(404);
    // B setting its own key at the same vendor is B's: A's stays as it was.
    expect((await put(b.apiKey, 'google', { apiKey: badKey('google') })).status).toBe(200);
    expect(await list(a.apiKey)).toEqual(before);
    expect((await t.api(a.apiKey, 'POST', `${path('google')}/test`)).body.result).toBe('valid');
  });
});

describe('secrets', () => {
  it('no key sent in this suite appears in any log line', () => {
    expect(sentKeys.length).toBeGreaterThan(10);
    const text = logged.join('');
    expect(text).toContain('provider key set');
    for (const value of sentKeys) expect(text).not.toContain(value);
  });
});
