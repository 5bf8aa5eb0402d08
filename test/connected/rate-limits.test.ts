/**
 * Invariant: with real, low limits, a key or a source IP over its window gets 429 with the error body,
 * Retry-After and the RateLimit/RateLimit-Policy fields, and a limited request changes nothing. Limits hold
 * per key and per IP (one address over its limit leaves others alone); the table's window counter admits
 * exactly `limit` of any number of concurrent requests, and takes an instance's batch reservation whole or
 * not at all (what makes it hold across Lambda instances);
 * repeating an unknown key costs no read and no failure count, and a key created after being cached as
 * unknown works once the cache's TTL has passed. Twilio's webhooks count only the ones refused: a callback
 * with a good signature is never limited until its address has used its window of refused ones.
 */
import { randomBytes } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { publicUrl } from '../../lib/config.js';
import { countInWindow } from '../../lib/store/rate-limits.js';
import { parseForm, twilioSignature } from '../../lib/vendors/telephony/twilio-webhook.js';
import { ENTITY, TABLE_SCHEMA_VERSION, key } from '../../lib/store/model.js';
import { createApiKey, hashApiKey } from '../../lib/store/workspaces.js';
import { queryPrefix } from '../../lib/store/dynamo.js';
import { signedUpUser } from '../support/dashboard-api.js';
import { expectRefusedUnchanged } from '../support/invariants.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';

// Day-long windows: a window boundary (UTC midnight) cannot fall inside this file's few seconds in practice.
const LIMITS = {
  RATE_LIMIT_KEY: '5/86400s',
  RATE_LIMIT_AUTH_FAILURES: '3/86400s',
  RATE_LIMIT_WEBHOOK: '3/86400s',
  RATE_LIMIT_MEETING: '4/86400s',
  RATE_LIMIT_MEETING_JOIN: '2/86400s',
  RATE_LIMIT_MEDIA_STREAM: '2/86400s',
  RATE_LIMIT_WIDGET: '3/86400s',
  RATE_LIMIT_WIDGET_KEY: '4/86400s',
  RATE_LIMIT_REFRESH: '3/86400s',
  UNKNOWN_KEY_CACHE_TTL_MS: '3000',
};

let t: TestPlatform;

beforeAll(async () => {
  Object.assign(process.env, LIMITS);
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One request sent from a chosen loopback address (127.0.0.0/8 is all local), so each test is its own client IP. */
function from(ip: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(path, t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers: init.headers, localAddress: ip, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // HTML and empty answers stay text.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const agentBody = (workspaceId: string) =>
  JSON.stringify({ name: 'A', llm_provider: 'openai', llm_model: 'gpt-4o-mini', tts_provider: 'cartesia', stt_provider: 'deepgram', workspaceId });

function expectLimited(res: Answer, policy: string, quota: number) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('rate_limited');
  expect(res.body.error.message).toMatch(/retry after \d+ seconds/);
  expect(res.body.error.details[0]).toMatchObject({ policy, limit: quota, windowSeconds: 86400 });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 86400).toBe(true);
  expect(res.headers['ratelimit-policy']).toBe(`"${policy}";q=${quota};w=86400`);
  expect(res.headers.ratelimit).toBe(`"${policy}";r=0;t=${retryAfter}`);
}

describe('per API key', () => {
  it('counts every request of a key, answers 429 past the limit, and a limited POST writes nothing', async () => {
    const ws = await t.workspace();
    const h = { 'x-api-key': ws.apiKey };
    const remaining: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await from('127.0.0.2', 'GET', '/api/agents', { headers: h });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"key";q=5;w=86400');
      remaining.push(String(res.headers.ratelimit).split(';')[1]!);
    }
    expect(remaining).toEqual(['r=4', 'r=3', 'r=2', 'r=1']);
    const fifth = await from('127.0.0.2', 'POST', '/api/agents', { headers: { ...h, 'content-type': 'application/json' }, body: agentBody(ws.workspaceId) });
    expect(fifth.status).toBe(201);
    expect(fifth.headers.ratelimit).toMatch(/^"key";r=0;t=\d+$/);

    const limitedPost = await expectRefusedUnchanged(t.deps.db, 429, () =>
      from('127.0.0.2', 'POST', '/api/agents', { headers: { ...h, 'content-type': 'application/json' }, body: agentBody(ws.workspaceId) }),
    );
    expectLimited(limitedPost, 'key', 5);
    expectLimited(await from('127.0.0.2', 'GET', '/api/agents', { headers: h }), 'key', 5);

    // Another key of the same workspace has its own window, and sees exactly the one agent created.
    const other = await createApiKey(t.deps.db, ws.workspaceId, 'second');
    const list = await from('127.0.0.2', 'GET', '/api/agents', { headers: { 'x-api-key': other.apiKey } });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
  });

  it('the table window admits exactly `limit` of 25 concurrent counts, whatever instance sends them', async () => {
    const window = { policy: 'test', partition: randomBytes(8).toString('hex'), startMs: 0, windowSeconds: 60, limit: 5 };
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => countInWindow(t.deps.db, window)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    expect(outcomes.filter((o) => o.allowed).map((o) => o.count).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('a batch an instance reserves is taken whole or not at all, and never past the limit', async () => {
    const window = { policy: 'test', partition: randomBytes(8).toString('hex'), startMs: 0, windowSeconds: 60, limit: 10 };
    const batches = await Promise.all(Array.from({ length: 8 }, () => countInWindow(t.deps.db, window, 3)));
    expect(batches.filter((b) => b.allowed).map((b) => b.count).sort()).toEqual([3, 6, 9]);
    // The last unit no longer fits a batch, but one request still fits; then nothing does.
    expect(await countInWindow(t.deps.db, window, 3)).toEqual({ allowed: false, count: 10 });
    expect(await countInWindow(t.deps.db, window, 1)).toEqual({ allowed: true, count: 10 });
    expect((await countInWindow(t.deps.db, window, 1)).allowed).toBe(false);
    await expect(countInWindow(t.deps.db, { ...window, partition: 'fresh' }, 11)).rejects.toThrow(RangeError);
  });
});

describe('failed authentications per source IP', () => {
  it('a repeated unknown key is answered from memory; distinct failures past the limit are 429; good keys still pass', async () => {
    const ws = await t.workspace();
    const ip = '127.0.0.3';
    expect((await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': ws.apiKey } })).status).toBe(200);
    const bad = () => `vak_${randomBytes(32).toString('base64url')}`;
    const repeated = bad();
    // One failure counted, then the same hash comes from the unknown-key cache: no read, no count.
    for (let i = 0; i < 6; i += 1) {
      expect((await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': repeated } })).status).toBe(401);
    }
    expect((await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': bad() } })).status).toBe(401);
    expect((await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': bad() } })).status).toBe(401);
    // Three failures used up: a fresh unknown key is refused before any read.
    expectLimited(await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': bad() } }), 'auth-failures', 3);
    // A key this instance knows to be good still works from that address; another address is unaffected.
    expect((await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': ws.apiKey } })).status).toBe(200);
    expect((await from('127.0.0.4', 'GET', '/api/agents', { headers: { 'x-api-key': bad() } })).status).toBe(401);
  });

  it('a key created after its value was cached as unknown works once the cache TTL has passed', async () => {
    const ws = await t.workspace();
    const value = `vak_${randomBytes(32).toString('base64url')}`;
    const ip = '127.0.0.5';
    expect((await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': value } })).status).toBe(401);
    await t.deps.db.doc.send(
      new PutCommand({
        TableName: t.deps.db.table,
        Item: { ...key.apiKey(hashApiKey(value)), entity: ENTITY.apiKey, v: TABLE_SCHEMA_VERSION, workspaceId: ws.workspaceId, keyId: 'key_late', createdAt: new Date().toISOString() },
      }),
    );
    let status = 0;
    const deadline = Date.now() + 20_000;
    while (status !== 200 && Date.now() < deadline) {
      status = (await from(ip, 'GET', '/api/agents', { headers: { 'x-api-key': value } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  });
});

describe('public routes per source IP', () => {
  it('Twilio webhooks: a signed one is never refused, however many; the refused ones are counted, and past the window even a signed one is 429', async () => {
    const account = (await t.deps.telephony.platformAccount())!;
    const form = (i: number) => `AccountSid=${account.accountSid}&CallSid=CA${String(i).padStart(32, '0')}&CallStatus=completed&From=%2B14155550100&To=%2B14155550101`;
    const signed = (body: string) => ({
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(account.authToken, publicUrl(t.deps.config, '/twilio/status'), parseForm(body)),
    });
    const post = (body: string, headers: Record<string, string>) => from('127.0.0.6', 'POST', '/twilio/status', { headers, body });
    // Twice the window of callbacks Twilio signed: each is answered, none counted.
    for (let i = 0; i < 6; i += 1) expect((await post(form(i), signed(form(i)))).status).toBe(204);
    // Unsigned, wrongly signed and malformed ones are refused and counted: three (the window), then 429.
    const unsigned = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = await post(form(10), unsigned);
    expect(refused.status).toBe(403);
    expect(refused.headers.ratelimit).toMatch(/^"webhook";r=2;t=\d+$/);
    expect((await post(form(11), { ...signed(form(11)), 'x-twilio-signature': 'forged' })).status).toBe(403);
    expect((await post('x'.repeat(70_000), unsigned)).status).toBe(413);
    expectLimited(await post(form(12), unsigned), 'webhook', 3);
    // The address is now refused before any signature work, a good signature included.
    expectLimited(await post(form(13), signed(form(13))), 'webhook', 3);
    // Another address is not.
    expect((await from('127.0.0.26', 'POST', '/twilio/status', { headers: signed(form(14)), body: form(14) })).status).toBe(204);
  });

  it('meeting pages: 429 once an address used its window', async () => {
    const open = () => from('127.0.0.7', 'GET', `/meeting/call_01JZZZZZZZZZZZZZZZZZZZZZZZ?token=${'a'.repeat(43)}`);
    for (let i = 0; i < 4; i += 1) expect((await open()).status).toBe(404);
    const limited = await open();
    expectLimited(limited, 'meeting', 4);
    // Joins have their own, smaller budget, counted apart from the page views.
    const join = () =>
      from('127.0.0.9', 'POST', '/meeting/call_01JZZZZZZZZZZZZZZZZZZZZZZZ/join', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${'a'.repeat(43)}` });
    for (let i = 0; i < 2; i += 1) expect((await join()).status).toBe(404);
    expectLimited(await join(), 'meeting-join', 2);
    expect((await from('127.0.0.9', 'GET', `/meeting/call_01JZZZZZZZZZZZZZZZZZZZZZZZ?token=x`)).status).toBe(404);
  });

  it('widget sessions: 429 per visitor address, and per widget key across addresses; the answer stays readable cross-origin', async () => {
    const ws = await t.workspace(100);
    const agent = await from('127.0.0.10', 'POST', '/api/agents', { headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json' }, body: agentBody(ws.workspaceId) });
    expect(agent.status).toBe(201);
    const origin = 'https://shop.example';
    const { apiKey } = await createApiKey(t.deps.db, ws.workspaceId, 'site', { agentIds: [agent.body._id], origins: [origin] });
    const start = (ip: string) =>
      from(ip, 'POST', '/widget/session', { headers: { 'content-type': 'text/plain', origin }, body: JSON.stringify({ apiKey, agentId: agent.body._id }) });
    for (let i = 0; i < 3; i += 1) expect((await start('127.0.0.11')).status).toBe(200);
    const perIp = await start('127.0.0.11');
    expectLimited(perIp, 'widget', 3);
    expect(perIp.headers['access-control-allow-origin']).toBe(origin);
    // Another visitor still gets in until the key's own budget (4) is spent.
    expect((await start('127.0.0.12')).status).toBe(200);
    expectLimited(await start('127.0.0.13'), 'widget-key', 4);
  });

  it('dashboard session refreshes: 429 once an address used its window, and a refused one makes no session key', async () => {
    const { browser, session } = await signedUpUser(t.baseUrl, `refresh-${randomBytes(4).toString('hex')}@example.com`, 'Correct-horse-9');
    const headers = { cookie: browser.cookie!, 'x-requested-with': 'dashboard' };
    const refresh = (ip: string) => from(ip, 'POST', '/auth/refresh', { headers });
    const sessionKeys = async () => {
      let n = 0;
      for await (const _ of queryPrefix(t.deps.db, `USER#${session.user.id}`, 'SESSION#')) n += 1;
      return n;
    };
    for (let i = 0; i < 3; i += 1) {
      const ok = await refresh('127.0.0.14');
      expect(ok.status).toBe(200);
      expect(ok.headers.ratelimit).toMatch(new RegExp(`^"refresh";r=${2 - i};t=\\d+$`));
    }
    const keys = await sessionKeys();
    expectLimited(await refresh('127.0.0.14'), 'refresh', 3);
    expect(await sessionKeys()).toBe(keys);
    // Another address is not limited by this one's window.
    expect((await refresh('127.0.0.15')).status).toBe(200);
  });

  it('media-stream upgrades: 429 on the upgrade once an address used its window', async () => {
    const url = `${t.baseUrl.replace(/^http/, 'ws')}/media-stream`;
    const attempt = () =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, { localAddress: '127.0.0.8' });
        ws.on('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.on('unexpected-response', (_req, res) => {
          expect(res.headers['retry-after']).toMatch(/^\d+$/);
          expect(res.headers.ratelimit).toMatch(/^"media-stream";r=0;t=\d+$/);
          resolve(res.statusCode ?? 0);
        });
        ws.on('error', () => undefined);
      });
    expect(await attempt()).toBe(101);
    expect(await attempt()).toBe(101);
    expect(await attempt()).toBe(429);
  });
});
