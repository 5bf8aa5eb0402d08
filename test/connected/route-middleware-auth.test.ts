/**
 * Invariant: in the one middleware stack (lib/http/handler.ts) a key alone names the workspace (another
 * workspaceId is 403); unknown, revoked and widget keys are refused, a refused write never runs its handler,
 * and a refusal is never cached as good; dashboard-only and owner-only routes refuse API keys and members;
 * public routes, webhooks and failed keys are rate limited per address before any work, and a key per key.
 * Driven without a server, as ./route-middleware.test.ts is. Expected values are literals.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type Deps } from '../../lib/deps.js';
import { AppError } from '../../lib/domain/errors.js';
import type { RouteInput } from '../../lib/http/handler.js';
import type { RouteSpec } from '../../lib/infra/routes.js';
import { createSessionKey } from '../../lib/store/users.js';
import { createApiKey, createWorkspace, hashApiKey, revokeApiKey } from '../../lib/store/workspaces.js';
import { base, bodyOf, call, event, middlewareEnvironment } from './route-middleware-support.js';

const environment = middlewareEnvironment();
let deps: Deps;
beforeAll(() => {
  deps = environment();
});

describe('the key decides the workspace', () => {
  const get = { ...base, method: 'GET', path: '/k', auth: true } satisfies RouteSpec;
  const post = { ...base, method: 'POST', path: '/k', auth: true, status: 201 } satisfies RouteSpec;
  const who = async (input: RouteInput<RouteSpec>) => ({ workspaceId: input.workspaceId, caller: input.caller });
  /** The first use reads the key; the second meets whatever the first left cached: both must refuse. */
  const refusedTwice = async (key: string, status: number, error: Record<string, string>) => {
    for (let i = 0; i < 2; i += 1) {
      const a = await call(get, who, event('GET', { key }));
      expect(a.statusCode).toBe(status);
      expect(bodyOf(a).error).toMatchObject(error);
    }
  };

  it('a good key: its workspace and key id, with the key policy in the RateLimit headers', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const a = await call(get, who, event('GET', { key: ws.apiKey }));
    expect(a.statusCode).toBe(200);
    expect(bodyOf(a)).toEqual({ workspaceId: ws.workspaceId, caller: { keyId: ws.keyId } });
    expect(a.headers).toMatchObject({ 'ratelimit-policy': '"key";q=20;w=86400', ratelimit: expect.stringMatching(/^"key";r=19;t=\d+$/) });
    // The second use takes the cached path and is counted too.
    const again = await call(post, who, event('POST', { key: ws.apiKey }));
    expect(again.statusCode).toBe(201);
    expect(bodyOf(again)).toEqual({ workspaceId: ws.workspaceId, caller: { keyId: ws.keyId } });
    expect(again.headers.ratelimit).toMatch(/^"key";r=18;t=\d+$/);
  });

  it('no key, an empty one, one over 200 characters or an unknown one: 401 with the default message', async () => {
    for (const key of [undefined, '', 'x'.repeat(201), 'vak_unknown_to_this_table']) {
      const a = await call(get, who, event('GET', { key }));
      expect(a.statusCode).toBe(401);
      expect(bodyOf(a).error).toEqual({ code: 'unauthorized', message: 'A valid x-api-key header is required.', details: [] });
    }
  });

  it('a revoked key is 401 "revoked" from the first request and from the cache of refusals after it', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const extra = await createApiKey(deps.db, ws.workspaceId, 'temp');
    await revokeApiKey(deps.db, ws.workspaceId, extra.keyId);
    await refusedTwice(extra.apiKey, 401, { message: 'This API key has been revoked.' });
  });

  it('a key revoked after its last use: a GET is 401 although its read ran, a write is 401 and never runs', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const extra = await createApiKey(deps.db, ws.workspaceId, 'temp');
    expect((await call(get, who, event('GET', { key: extra.apiKey }))).statusCode).toBe(200);
    await revokeApiKey(deps.db, ws.workspaceId, extra.keyId);
    let ran = 0;
    const counting = async () => {
      ran += 1;
      return {};
    };
    const write = await call(post, counting, event('POST', { key: extra.apiKey }));
    expect(write.statusCode).toBe(401);
    expect(bodyOf(write).error.message).toBe('This API key has been revoked.');
    expect(ran).toBe(0);
    // The refusal is cached now: another write is refused before any read, and never runs either.
    expect((await call(post, counting, event('POST', { key: extra.apiKey }))).statusCode).toBe(401);
    expect(ran).toBe(0);

    const other = await createApiKey(deps.db, ws.workspaceId, 'temp2');
    expect((await call(get, who, event('GET', { key: other.apiKey }))).statusCode).toBe(200);
    await revokeApiKey(deps.db, ws.workspaceId, other.keyId);
    const read = await call(get, counting, event('GET', { key: other.apiKey }));
    expect(read.statusCode).toBe(401);
    expect(ran).toBe(1);
  });

  it('a widget key is 403 widget_key on every use (never cached as good)', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const widget = await createApiKey(deps.db, ws.workspaceId, 'site', { agentIds: [], origins: ['https://shop.example'] });
    await refusedTwice(widget.apiKey, 403, { code: 'widget_key' });
  });

  it('another workspace named in the query or the body is 403 and the handler never runs; its own is fine', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    let ran = 0;
    const counting = async () => {
      ran += 1;
      return {};
    };
    const bodyRoute = { ...post, body: z.object({ workspaceId: z.string().optional(), name: z.string().optional() }) } satisfies RouteSpec;
    const foreign = 'ws_01J00000000000000000000000';
    for (const e of [event('GET', { key: ws.apiKey, query: { workspaceId: foreign } })]) {
      const a = await call(get, counting, e);
      expect(a.statusCode).toBe(403);
      expect(bodyOf(a).error).toEqual({ code: 'forbidden', message: 'This API key cannot act on that workspace.', details: [] });
    }
    expect((await call(bodyRoute, counting, event('POST', { key: ws.apiKey, body: { workspaceId: foreign } }))).statusCode).toBe(403);
    expect(ran).toBe(0);
    expect((await call(bodyRoute, counting, event('POST', { key: ws.apiKey, body: { workspaceId: ws.workspaceId } }))).statusCode).toBe(201);
    expect((await call(get, counting, event('GET', { key: ws.apiKey, query: { workspaceId: ws.workspaceId } }))).statusCode).toBe(200);
    // A workspaceId that is not a string names no workspace: validation, not tenancy, answers it.
    expect((await call(bodyRoute, counting, event('POST', { key: ws.apiKey, body: { workspaceId: 5 } }))).statusCode).toBe(400);
    expect(ran).toBe(2);
  });

  it('dashboard-only routes refuse API keys; owner-only routes refuse members and admit owners', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const userRoute = { ...get, access: 'user' } satisfies RouteSpec;
    const ownerRoute = { ...get, access: 'owner' } satisfies RouteSpec;
    const apiKeyAnswer = await call(userRoute, who, event('GET', { key: ws.apiKey }));
    expect(apiKeyAnswer.statusCode).toBe(403);
    expect(bodyOf(apiKeyAnswer).error.code).toBe('user_session_required');
    const member = await createSessionKey(deps.db, { userId: 'usr_member', workspaceId: ws.workspaceId, role: 'member' });
    const owner = await createSessionKey(deps.db, { userId: 'usr_owner', workspaceId: ws.workspaceId, role: 'owner' });
    const asMember = await call(userRoute, who, event('GET', { key: member.apiKey }));
    expect(bodyOf(asMember)).toEqual({ workspaceId: ws.workspaceId, caller: { keyId: expect.any(String), user: { userId: 'usr_member', role: 'member' } } });
    const memberOnOwner = await call(ownerRoute, who, event('GET', { key: member.apiKey }));
    expect(memberOnOwner.statusCode).toBe(403);
    expect(bodyOf(memberOnOwner).error.code).toBe('owner_required');
    expect((await call(ownerRoute, who, event('GET', { key: owner.apiKey }))).statusCode).toBe(200);
  });

  it("behind API Gateway the authorizer's context names the workspace and caller; an incomplete context is not trusted", async () => {
    const context = { workspaceId: 'ws_01J0000000000000000000AUTH', keyHash: hashApiKey('not-stored'), keyId: 'key_1', userId: 'usr_1', role: 'owner' };
    const a = await call(post, who, event('POST', { authorizer: context }));
    expect(a.statusCode).toBe(201);
    expect(bodyOf(a)).toEqual({ workspaceId: 'ws_01J0000000000000000000AUTH', caller: { keyId: 'key_1', user: { userId: 'usr_1', role: 'owner' } } });
    expect(a.headers.ratelimit).toMatch(/^"key";r=19;t=\d+$/);
    const plain = await call(get, who, event('GET', { authorizer: { ...context, userId: undefined, role: undefined } }));
    expect(bodyOf(plain)).toEqual({ workspaceId: 'ws_01J0000000000000000000AUTH', caller: { keyId: 'key_1' } });
    for (const missing of ['workspaceId', 'keyHash', 'keyId']) {
      expect((await call(get, who, event('GET', { authorizer: { ...context, [missing]: undefined } }))).statusCode).toBe(401);
    }
  });
});

describe('rate limits', () => {
  it('a public route counts per source address before any work: the 11th widget request in its window is 429 with Retry-After', async () => {
    const route = { ...base, method: 'POST', path: '/w', auth: false, ipLimit: 'widget', cors: true } satisfies RouteSpec;
    let ran = 0;
    const fn = async () => {
      ran += 1;
      return {};
    };
    const from = '203.0.113.77';
    for (let i = 0; i < 10; i += 1) expect((await call(route, fn, event('POST', { sourceIp: from, body: {} }))).statusCode).toBe(200);
    const limited = await call(route, fn, event('POST', { sourceIp: from, body: {}, headers: { origin: 'https://shop.example' } }));
    expect(limited.statusCode).toBe(429);
    expect(bodyOf(limited).error.code).toBe('rate_limited');
    expect(limited.headers).toMatchObject({ 'retry-after': expect.stringMatching(/^\d+$/), 'ratelimit-policy': '"widget";q=10;w=86400', 'access-control-allow-origin': 'https://shop.example' });
    expect(ran).toBe(10);
    // A refusal of the handler itself still carries the window's headers.
    const other = await call(route, async () => {
      throw new AppError(404, 'not_found', 'No.');
    }, event('POST', { sourceIp: '203.0.113.78', body: {} }));
    expect(other.headers['ratelimit-policy']).toBe('"widget";q=10;w=86400');
    // Counted once, before the handler: its refusal does not count again (only webhooks count refusals).
    expect(other.headers.ratelimit).toMatch(/^"widget";r=9;t=\d+$/);
  });

  it("webhooks count only what their handler refuses (a 4xx): answered ones never; past the window, 429 before the handler", async () => {
    const route = { ...base, method: 'POST', path: '/twilio/x', auth: false, ipLimit: 'webhook', bodyKind: 'raw' } satisfies RouteSpec;
    let ran = 0;
    const answer = async () => {
      ran += 1;
      return {};
    };
    const refuse = async () => {
      ran += 1;
      throw new AppError(403, 'invalid_signature', 'The request signature is not valid.');
    };
    const crash = async () => {
      ran += 1;
      throw new Error('the store is down');
    };
    const from = '203.0.113.120';
    // Answered webhooks, twice the window: never counted, and no RateLimit fields on them.
    for (let i = 0; i < 10; i += 1) {
      const ok = await call(route, answer, event('POST', { sourceIp: from, rawBody: 'a=1' }));
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-policy']).toBeUndefined();
    }
    // Our own failures (500) are not the sender's: not counted either.
    for (let i = 0; i < 3; i += 1) expect((await call(route, crash, event('POST', { sourceIp: from, rawBody: 'a=1' }))).statusCode).toBe(500);
    // Each refusal counts, and says what is left of the window.
    for (let left = 4; left >= 0; left -= 1) {
      const refused = await call(route, refuse, event('POST', { sourceIp: from, rawBody: 'a=1' }));
      expect(refused.statusCode).toBe(403);
      expect(refused.headers.ratelimit).toMatch(new RegExp(`^"webhook";r=${left};t=\\d+$`));
    }
    expect(ran).toBe(18);
    // The window is used: 429 before the handler, whatever it would have answered.
    const limited = await call(route, answer, event('POST', { sourceIp: from, rawBody: 'a=1' }));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'ratelimit-policy': '"webhook";q=5;w=86400', 'retry-after': expect.stringMatching(/^\d+$/) });
    expect((await call(route, refuse, event('POST', { sourceIp: from, rawBody: 'a=1' }))).statusCode).toBe(429);
    expect(ran).toBe(18);
    // Another address is not limited.
    expect((await call(route, answer, event('POST', { sourceIp: '203.0.113.121', rawBody: 'a=1' }))).statusCode).toBe(200);
  });

  it('20 failed keys from one address: the 21st unknown key is 429 before its read; a key already known still works', async () => {
    const route = { ...base, method: 'GET', path: '/k', auth: true } satisfies RouteSpec;
    const from = '203.0.113.90';
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    expect((await call(route, async () => ({}), event('GET', { key: ws.apiKey, sourceIp: from }))).statusCode).toBe(200);
    for (let i = 0; i < 20; i += 1) expect((await call(route, async () => ({}), event('GET', { key: `vak_bad_${i}`, sourceIp: from }))).statusCode).toBe(401);
    const blocked = await call(route, async () => ({}), event('GET', { key: 'vak_bad_20', sourceIp: from }));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['ratelimit-policy']).toBe('"auth-failures";q=20;w=86400');
    expect((await call(route, async () => ({}), event('GET', { key: ws.apiKey, sourceIp: from }))).statusCode).toBe(200);
    // IPv4 mapped into IPv6 is the same address.
    expect((await call(route, async () => ({}), event('GET', { key: 'vak_bad_21', sourceIp: `::ffff:${from}` }))).statusCode).toBe(429);
  });
});

describe('what failed authentications cost', () => {
  const route = { ...base, method: 'GET', path: '/k', auth: true } satisfies RouteSpec;

  it('requests without a key, and an unknown key repeated, count one failure at most: 25 of them are never 429', async () => {
    const from = '203.0.113.120';
    for (let i = 0; i < 25; i += 1) expect((await call(route, async () => ({}), event('GET', { sourceIp: from }))).statusCode).toBe(401);
    for (let i = 0; i < 25; i += 1) {
      const a = await call(route, async () => ({}), event('GET', { key: 'vak_same_unknown_key', sourceIp: from }));
      expect(a.statusCode).toBe(401);
      // The cached refusal of an unknown key is not taken for a revoked one.
      expect(bodyOf(a).error.message).toBe('A valid x-api-key header is required.');
    }
  });

  it("a key's 21st request in its window is 429 rate_limited (20 allowed)", async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await call(route, async () => ({}), event('GET', { key: ws.apiKey }))).statusCode!);
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
  });
});
