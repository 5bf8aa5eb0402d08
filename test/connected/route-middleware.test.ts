/**
 * Invariant: the one middleware stack (lib/http/handler.ts) decides what leaves. Driven here without a
 * server: routes defined in the test, Lambda events built by hand, DynamoDB Local for keys and rate windows.
 * Validation names the field; a route's options (its telephony adapter) reach its handler; answers are
 * projected by the response schema; a 4xx carries the route's CORS and rate headers; anything else is a 500
 * that tells nothing. Who may act (keys, roles, rate limits) is ./route-middleware-auth.test.ts. Expected
 * values are literals.
 */
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { getDeps, setProcessEnvironment, type Deps } from '../../lib/deps.js';
import { AppError } from '../../lib/domain/errors.js';
import { defineRoute, type RouteInput } from '../../lib/http/handler.js';
import type { RouteSpec } from '../../lib/infra/routes.js';
import type { TelephonyPort } from '../../lib/vendors/telephony/port.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { base, bodyOf, call, event, middlewareEnvironment } from './route-middleware-support.js';

const environment = middlewareEnvironment();
let deps: Deps;
beforeAll(() => {
  deps = environment();
});

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
      throw new AppError(409, 'phone_number_taken', 'That name is taken.', [{ field: 'name', message: 'taken' }]);
    }, event('GET'));
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused)).toEqual({ error: { code: 'phone_number_taken', message: 'That name is taken.', details: [{ field: 'name', message: 'taken' }] } });
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
      throw new AppError(403, 'forbidden', 'No.');
    }, event('GET', { headers: { origin: 'https://shop.example' } }));
    expect(refused.headers).toMatchObject({ 'access-control-allow-origin': 'https://shop.example', vary: 'origin' });
    expect((await call(route, async () => ({}), event('GET', { headers: { origin: 'https://shop.example' } }))).headers['access-control-allow-origin']).toBeUndefined();
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
      throw new AppError(500, 'service_unavailable', 'table t-1 refused the write');
    }, event('POST', { body: {} }));
    expect(bodyOf(a).error.code).toBe('internal_error');
  });
});
