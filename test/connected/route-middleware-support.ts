/**
 * What the middleware files share (./route-middleware.test.ts, ./route-middleware-auth.test.ts): a route
 * defined in the test, a Lambda event built by hand (each from its own source address), and the call.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { defineRoute, type RouteInput } from '../../lib/http/handler.js';
import type { RouteSpec } from '../../lib/infra/routes.js';

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
