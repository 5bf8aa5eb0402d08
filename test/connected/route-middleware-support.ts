/**
 * What the middleware files share (./route-middleware.test.ts, ./route-middleware-auth.test.ts): a route
 * defined in the test, its environment, a Lambda event built by hand (each from its own source address), and
 * the call.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { defineRoute, type RouteInput } from '../../lib/http/handler.js';
import type { RouteSpec } from '../../lib/infra/routes.js';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { getDeps, type Deps } from '../../lib/deps.js';
import { ensureTable } from '../../lib/local/platform/dynamodb.js';

/**
 * The route stack's environment, as a Lambda's (the middleware builds its dependencies from it on first
 * use), for one test file: its own table and secret key, and day-long rate windows. Registers the file's
 * hooks; the dependencies are there once its beforeAll has run.
 */
export function middlewareEnvironment(): () => Deps {
  let deps: Deps | undefined;
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
  return () => deps!;
}

export const base = { entry: 'test', summary: 'test', tag: 'test', status: 200 } as const;

let ip = 0;
/** A Lambda event; each gets its own source address unless one is given (rate windows are per address). */
export function event(
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
export async function call<R extends RouteSpec>(route: R, fn: (input: RouteInput<R>) => Promise<unknown>, e: APIGatewayProxyEventV2): Promise<Answer> {
  return (await defineRoute(route, fn)(e, {} as Context)) as Answer;
}
export const bodyOf = (a: Answer) => JSON.parse(String(a.body));
