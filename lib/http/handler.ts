import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import { withTelephony, type Deps, type TelephonyAdapter } from '../deps.js';
import type { RouteSpec } from '../infra/routes.js';
import { withRequestDeadline } from '../store/dynamo.js';
import { access } from './middleware/access.js';
import { authenticate } from './middleware/authenticate.js';
import { csrf, type DashboardRequestRule } from './middleware/csrf.js';
import { errorResponse } from './middleware/error-response.js';
import { ipLimit } from './middleware/ip-limit.js';
import { jsonBody } from './middleware/json-body.js';
import { requestLog } from './middleware/request-log.js';
import { requestState } from './middleware/request-state.js';
import { responseHeaders } from './middleware/response-headers.js';
import { json, type Caller, type Event } from './middleware/state.js';
import { tenancy } from './middleware/tenancy.js';
import { validate } from './middleware/validate.js';

export type { Caller } from './middleware/state.js';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a route's handler receives: validated input, the caller's workspace and the dependencies. */
export interface RouteInput<R extends RouteSpec> {
  readonly body: R['body'] extends z.ZodType ? Infer<R['body']> : undefined;
  readonly query: Infer<R['query']>;
  readonly params: Infer<R['params']>;
  /** The workspace the API key belongs to (the only one it may touch). */
  readonly workspaceId: string;
  /** Who presented the key: its id and, for a dashboard session key, the user and their role. */
  readonly caller: Caller;
  readonly deps: Deps;
  readonly event: APIGatewayProxyEventV2;
}

/** A non-JSON answer (HTML, assets, TwiML); returned as is. */
export interface RawResponse {
  readonly raw: true;
  readonly status?: number;
  readonly contentType: string;
  readonly body: string | Buffer;
  readonly headers?: Record<string, string>;
}

export const isRaw = (v: unknown): v is RawResponse =>
  typeof v === 'object' && v !== null && (v as { raw?: unknown }).raw === true;

/** What a route module adds to the shared dependencies. */
export interface RouteOptions {
  /** The telephony adapter, for routes that reach the provider (its SDK is bundled only where named). */
  readonly telephony?: TelephonyAdapter;
  /**
   * The CSRF rule of a `csrf` route (lib/http/session-cookie.ts, DASHBOARD_REQUEST), run before anything
   * else. Handed in by the route rather than imported here, so only the /auth function bundles it.
   */
  readonly dashboardRequest?: DashboardRequestRule;
}

/**
 * The one middleware stack every HTTP route uses, one concern per module under lib/http/middleware/ and
 * listed below in the order they run; the route's answer is projected by its response schema. A handler
 * module is `defineRoute(ROUTES.x, fn)`.
 */
export function defineRoute<const R extends RouteSpec>(
  route: R,
  fn: (input: RouteInput<R>) => Promise<unknown>,
  options: RouteOptions = {},
) {
  const routeKey = `${route.method} ${route.path}`;
  // A route the table marks `csrf` cannot be defined without its rule (every /auth handler passes it).
  if (route.csrf && !options.dashboardRequest) throw new Error(`${routeKey} is a csrf route: pass its dashboardRequest rule`);
  // Built once per process-wide deps (a local platform started again in the same process has new ones).
  let routeDeps: { readonly of: Deps; readonly deps: Deps } | undefined;
  const depsFor = (deps: Deps): Deps => {
    if (!options.telephony) return deps;
    if (routeDeps?.of !== deps) routeDeps = { of: deps, deps: withTelephony(deps, options.telephony) };
    return routeDeps.deps;
  };
  const base = async (event: Event): Promise<APIGatewayProxyStructuredResultV2> => {
    const state = event.app!;
    const input = state.input!;
    const work = fn({
      body: input.body,
      query: input.query,
      params: input.params,
      workspaceId: state.workspaceId ?? '',
      caller: state.caller ?? { keyId: '' },
      deps: state.deps!,
      event,
    } as RouteInput<R>);
    const [verified, result] = await Promise.allSettled([state.verified ?? Promise.resolve(), work]);
    if (verified.status === 'rejected') throw verified.reason;
    if (result.status === 'rejected') throw result.reason;
    const value = result.value;
    if (isRaw(value)) {
      const binary = Buffer.isBuffer(value.body);
      return {
        statusCode: value.status ?? route.status,
        headers: { 'content-type': value.contentType, ...value.headers },
        body: binary ? (value.body as Buffer).toString('base64') : (value.body as string),
        isBase64Encoded: binary,
      };
    }
    if (route.status === 204) return { statusCode: 204, headers: { 'x-request-id': event.requestContext.requestId } };
    const payload = route.response ? route.response.parse(value) : value;
    return json(route.status, payload, event.requestContext.requestId);
  };

  // The order they run in. Middy runs `after` and `onError` hooks in reverse: the error answer is built
  // last (after ipLimit's onError counted a webhook's refusal) and the request line is logged last.
  const handler = middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>(base)
    .use(requestLog(routeKey))
    .use(errorResponse(route, routeKey))
    .use(requestState(depsFor))
    .use(csrf(route, options.dashboardRequest))
    .use(ipLimit(route))
    .use(authenticate(route))
    .use(access(route))
    .use(jsonBody(route))
    .use(tenancy(route))
    .use(validate(route))
    .use(responseHeaders(route));
  // The store's retries within the request (transact) end before the function is cut off.
  return (event: Event, context: Context): Promise<APIGatewayProxyStructuredResultV2> =>
    typeof context?.getRemainingTimeInMillis === 'function'
      ? withRequestDeadline(Date.now() + context.getRemainingTimeInMillis(), () => handler(event, context))
      : handler(event, context);
}
