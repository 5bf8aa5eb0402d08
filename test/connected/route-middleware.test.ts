/**
 * Invariant: the one middleware stack (lib/http/handler.ts) decides who may act and what leaves. Driven
 * here without a server: routes defined in the test, Lambda events built by hand, DynamoDB Local for keys
 * and rate windows. A key alone names the workspace (another workspaceId is 403); unknown, revoked and
 * widget keys are refused and a refused write never runs its handler; dashboard-only and owner-only routes
 * refuse API keys and members; validation names the field; answers are projected by the response schema;
 * a 4xx carries the route's CORS and rate headers; anything else is a 500 that tells nothing. Expected
 * values are literals.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import * as z from 'zod';
import { getDeps, setProcessEnvironment, type Deps } from '../../lib/deps.js';
import { AppError } from '../../lib/domain/errors.js';
import { defineRoute, type RouteInput } from '../../lib/http/handler.js';
import type { RouteSpec } from '../../lib/infra/routes.js';
import { ensureTable } from '../../lib/local/platform/dynamodb.js';
import type { TelephonyPort } from '../../lib/vendors/telephony/port.js';
import { createSessionKey } from '../../lib/store/users.js';
import { createApiKey, createWorkspace, hashApiKey, revokeApiKey } from '../../lib/store/workspaces.js';

let deps: Deps;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vap-mw-'));
  const table = `t-${randomBytes(6).toString('hex')}`;
  await ensureTable(inject('stores').dynamodb, table);
  // The middleware builds its dependencies from the environment on first use, as in a Lambda.
  Object.assign(process.env, {
    TABLE_NAME: table,
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: inject('stores').dynamodb,
    SECRET_KEY_FILE: join(dataDir, 'secret.key'),
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    // Day-long windows (their end is UTC midnight) for the tests that fill one: a window's end falling
    // between the requests that fill it and the one that must be refused reset the count (a minute's window
    // did once, under load).
    RATE_LIMIT_KEY: '20/86400s',
    RATE_LIMIT_AUTH_FAILURES: '20/86400s',
    RATE_LIMIT_WIDGET: '10/86400s',
    RATE_LIMIT_WEBHOOK: '5/86400s',
  });
  deps = await getDeps();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const base = { entry: 'test', summary: 'test', tag: 'test', status: 200 } as const;

let ip = 0;
/** A Lambda event; each gets its own source address unless one is given (rate windows are per address). */
function event(
  method: string,
  init: { key?: string; body?: unknown; rawBody?: string; query?: Record<string, string>; params?: Record<string, string>; headers?: Record<string, string>; sourceIp?: string; authorizer?: Record<string, unknown> } = {},
): APIGatewayProxyEventV2 {
  return {
    headers: { ...(init.key === undefined ? {} : { 'x-api-key': init.key }), ...init.headers },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    isBase64Encoded: false,
    queryStringParameters: init.query,
    pathParameters: init.params,
    requestContext: {
      requestId: 'req-1',
      http: { method, sourceIp: init.sourceIp ?? `198.51.100.${(ip = (ip % 250) + 1)}` },
      ...(init.authorizer ? { authorizer: { lambda: init.authorizer } } : {}),
    },
  } as unknown as APIGatewayProxyEventV2;
}

type Answer = APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };
async function call<R extends RouteSpec>(route: R, fn: (input: RouteInput<R>) => Promise<unknown>, e: APIGatewayProxyEventV2): Promise<Answer> {
  return (await defineRoute(route, fn)(e, {} as Context)) as Answer;
}
const bodyOf = (a: Answer) => JSON.parse(String(a.body));

describe('validation', () => {
  const route = {
    ...base,
    method: 'POST',
    path: '/v/{id}',
    auth: false,
    params: z.strictObject({ id: z.string().startsWith('x_') }),
    query: z.strictObject({ limit: z.coerce.number().int().max(10).optional() }),
    body: z.strictObject({ name: z.string(), inner: z.strictObject({ n: z.number() }).optional() }),
  } satisfies RouteSpec;
  const echo = async (input: RouteInput<typeof route>) => ({ body: input.body, query: input.query, params: input.params });

  it('passes the parsed body, query (an empty object when absent) and params to the handler', async () => {
    const a = await call(route, echo, event('POST', { body: { name: 'n' }, params: { id: 'x_1' } }));
    expect(a.statusCode).toBe(200);
    expect(a.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1' });
    expect(bodyOf(a)).toEqual({ body: { name: 'n' }, query: {}, params: { id: 'x_1' } });
  });

  it('no body: 400 "a JSON body is required"', async () => {
    const a = await call(route, echo, event('POST', { params: { id: 'x_1' } }));
    expect(a.statusCode).toBe(400);
    expect(bodyOf(a)).toEqual({ error: { code: 'validation_failed', message: 'The request did not pass validation.', details: [{ field: 'body', message: 'a JSON body is required' }] } });
  });

  it('names the field: a body field bare, nested with dots, query and path prefixed, unknown keys listed', async () => {
    const fields = async (init: Parameters<typeof event>[1]) =>
      bodyOf(await call(route, echo, event('POST', { params: { id: 'x_1' }, body: { name: 'n' }, ...init }))).error.details.map((d: { field: string; keys?: string[] }) => [d.field, d.keys]);
    expect(await fields({ body: { name: 5 } })).toEqual([['name', undefined]]);
    expect(await fields({ body: { name: 'n', inner: { n: 'one' } } })).toEqual([['inner.n', undefined]]);
    expect(await fields({ body: { name: 'n', extra: 1 } })).toEqual([['body', ['extra']]]);
    expect(await fields({ query: { limit: '11' } })).toEqual([['query.limit', undefined]]);
    expect(await fields({ query: { other: '1' } })).toEqual([['query', ['other']]]);
    expect(await fields({ params: { id: 'y_1' } })).toEqual([['path.id', undefined]]);
    expect(await fields({ body: [1] })).toEqual([['body', undefined]]);
  });
});

describe('route options', () => {
  it('a route that names a telephony adapter runs with it, built once per process-wide deps', async () => {
    const route = { ...base, method: 'GET', path: '/t', auth: false } satisfies RouteSpec;
    const ports: object[] = [];
    const adapter = () => {
      const port = { name: `port ${ports.length + 1}` };
      ports.push(port);
      return port as unknown as TelephonyPort;
    };
    const seen: Deps[] = [];
    const handler = defineRoute(route, async (input) => {
      seen.push(input.deps);
      return {};
    }, { telephony: adapter });
    await handler(event('GET'), {} as Context);
    await handler(event('GET'), {} as Context);
    expect(ports).toEqual([{ name: 'port 1' }]);
    expect(seen.map((d) => d.telephony.port)).toEqual([ports[0], ports[0]]);
    // Everything else is the process's own deps.
    expect(seen[0]!.db).toBe((await getDeps()).db);
    // New process-wide deps (a platform started again in this process): the route builds its own again.
    setProcessEnvironment({})();
    await handler(event('GET'), {} as Context);
    expect(ports).toEqual([{ name: 'port 1' }, { name: 'port 2' }]);
    expect(seen[2]!.telephony.port).toBe(ports[1]);
    expect(seen[2]!.db).toBe((await getDeps()).db);
  });
});

describe('answers', () => {
  const route = { ...base, method: 'GET', path: '/a', auth: false } satisfies RouteSpec;

  it('the response schema projects the result: a field outside it never leaves', async () => {
    const projected = { ...route, response: z.object({ id: z.string() }) } satisfies RouteSpec;
    const a = await call(projected, async () => ({ id: 'r1', secret: 's' }), event('GET'));
    expect(bodyOf(a)).toEqual({ id: 'r1' });
    expect(bodyOf(await call(route, async () => ({ id: 'r1', secret: 's' }), event('GET')))).toEqual({ id: 'r1', secret: 's' });
  });

  it('201 and 204 as the route says; 204 has no body', async () => {
    expect((await call({ ...route, status: 201 }, async () => ({}), event('GET'))).statusCode).toBe(201);
    expect(await call({ ...route, status: 204 }, async () => ({ ignored: true }), event('GET'))).toEqual({ statusCode: 204, headers: { 'x-request-id': 'req-1' } });
  });

  it('a raw answer is returned as is: text plain, a Buffer in base64, the route status unless it names one', async () => {
    const text = await call(route, async () => ({ raw: true, contentType: 'text/html', body: '<p>hi</p>', headers: { 'cache-control': 'no-store' } }), event('GET'));
    expect(text).toEqual({ statusCode: 200, headers: { 'content-type': 'text/html', 'cache-control': 'no-store' }, body: '<p>hi</p>', isBase64Encoded: false });
    const binary = await call(route, async () => ({ raw: true, status: 206, contentType: 'audio/wav', body: Buffer.from([1, 2, 3]) }), event('GET'));
    expect(binary).toEqual({ statusCode: 206, headers: { 'content-type': 'audio/wav' }, body: 'AQID', isBase64Encoded: true });
    // `raw` must be exactly true: anything else is JSON.
    expect(bodyOf(await call(route, async () => ({ raw: 'yes', body: 'b' }), event('GET')))).toEqual({ raw: 'yes', body: 'b' });
    expect(bodyOf(await call(route, async () => null, event('GET')))).toBeNull();
  });

  it('a domain refusal is its JSON error body; any other failure is a 500 that names only the request id', async () => {
    const refused = await call(route, async () => {
      throw new AppError(409, 'taken', 'That name is taken.', [{ field: 'name', message: 'taken' }]);
    }, event('GET'));
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused)).toEqual({ error: { code: 'taken', message: 'That name is taken.', details: [{ field: 'name', message: 'taken' }] } });
    expect(refused.headers).toEqual({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1' });
    const crashed = await call(route, async () => {
      throw new Error('table secret-table is on fire');
    }, event('GET'));
    expect(crashed.statusCode).toBe(500);
    expect(bodyOf(crashed)).toEqual({ error: { code: 'internal_error', message: 'Something went wrong on our side. Try again; if it persists, quote the request id.', details: [{ requestId: 'req-1' }] } });
    const server = await call(route, async () => {
      throw new AppError(503, 'unavailable', 'inner detail');
    }, event('GET'));
    expect(bodyOf(server).error.code).toBe('internal_error');
  });

  it('a CORS route answers the request origin (never *), on success and on refusal; without an Origin only vary', async () => {
    const cors = { ...route, cors: true } satisfies RouteSpec;
    const ok = await call(cors, async () => ({}), event('GET', { headers: { origin: 'https://shop.example' } }));
    expect(ok.headers).toMatchObject({ 'access-control-allow-origin': 'https://shop.example', vary: 'origin' });
    const bare = await call(cors, async () => ({}), event('GET'));
    expect(bare.headers.vary).toBe('origin');
    expect(bare.headers['access-control-allow-origin']).toBeUndefined();
    const refused = await call(cors, async () => {
      throw new AppError(403, 'nope', 'No.');
    }, event('GET', { headers: { origin: 'https://shop.example' } }));
    expect(refused.headers).toMatchObject({ 'access-control-allow-origin': 'https://shop.example', vary: 'origin' });
    expect((await call(route, async () => ({}), event('GET', { headers: { origin: 'https://shop.example' } }))).headers['access-control-allow-origin']).toBeUndefined();
  });
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

describe('what the stack reads, and on which routes', () => {
  const open = { ...base, method: 'POST', path: '/o', auth: false } satisfies RouteSpec;

  it('a missing body is refused even when every field is optional; a missing query is an empty one, checked as such', async () => {
    const optionalBody = { ...open, body: z.object({ name: z.string().optional() }) } satisfies RouteSpec;
    const a = await call(optionalBody, async () => ({}), event('POST'));
    expect(a.statusCode).toBe(400);
    expect(bodyOf(a).error.details).toEqual([{ field: 'body', message: 'a JSON body is required' }]);
    const requiredQuery = { ...open, query: z.object({ page: z.string() }) } satisfies RouteSpec;
    const q = await call(requiredQuery, async () => ({}), event('POST'));
    expect(bodyOf(q).error.details.map((d: { field: string }) => d.field)).toEqual(['query.page']);
  });

  it('raw and bodiless routes never parse the body as JSON; a public route ignores a workspaceId', async () => {
    for (const bodyKind of ['raw', 'none'] as const) {
      const route = { ...open, bodyKind } satisfies RouteSpec;
      const a = await call(route, async () => ({ ok: true }), event('POST', { rawBody: 'a=1&b=2', query: { workspaceId: 'ws_other' } }));
      expect(a.statusCode).toBe(200);
    }
    expect((await call(open, async () => ({}), event('POST', { body: { workspaceId: 'ws_other' }, query: { workspaceId: 'ws_other' } }))).statusCode).toBe(200);
  });

  it('an authenticated route given a JSON null body answers 400, not a 500', async () => {
    const ws = await createWorkspace(deps.db, { name: 'mw', credits: 0 });
    const route = { ...base, method: 'POST', path: '/n', auth: true, body: z.object({ name: z.string() }) } satisfies RouteSpec;
    const a = await call(route, async () => ({}), event('POST', { key: ws.apiKey, rawBody: 'null' }));
    expect(a.statusCode).toBe(400);
  });

  it('an AppError of status 500 is still the generic 500: its message never leaves', async () => {
    const a = await call(open, async () => {
      throw new AppError(500, 'db_down', 'table t-1 refused the write');
    }, event('POST', { body: {} }));
    expect(bodyOf(a).error.code).toBe('internal_error');
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
