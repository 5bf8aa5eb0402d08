import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteSpec } from '../infra/route-spec.js';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * One Lambda for several routes: the handler of each is picked by the event's route key (`POST /auth/sign-in`),
 * which API Gateway and the local server both set. For families of small routes (the dashboard's), where a
 * function each would cost the stack five resources each against CloudFormation's 500 per stack, and
 * where one warm function serves a user's whole sign-in.
 */
export function routeGroup(routes: readonly (readonly [RouteSpec, Handler])[]): Handler {
  const byKey = new Map(routes.map(([route, handler]) => [`${route.method} ${route.path}`, handler]));
  return (event, context) => {
    const handler = byKey.get(event.routeKey);
    // Only a route table naming this module for a route it does not group can get here: a bug, so a 500.
    if (!handler) throw new Error(`No handler in this group for ${event.routeKey}`);
    return handler(event, context);
  };
}

/**
 * {@link routeGroup} keyed by operation id within one group of the route table:
 * `routeSwitch(CAMPAIGNS_ROUTES, { createCampaign: handler, ... })`. The group, not the whole table, so the
 * bundle carries only that domain's schemas.
 */
export function routeSwitch<G extends Readonly<Record<string, RouteSpec>>>(group: G, handlers: Partial<Record<keyof G, Handler>>): Handler {
  return routeGroup(Object.entries(handlers).map(([id, handler]) => [group[id]!, handler!] as const));
}
