import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ROUTES, type OperationId } from '../infra/routes.js';

type RouteHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * One Lambda serving several routes of one resource, each still a `defineRoute` handler with its own
 * schemas: API Gateway names the matched route in `routeKey` (the local server does the same). A function
 * costs the stack four CloudFormation resources (function, role, policy, log group) against the 500 a
 * stack may hold, so a resource's small routes share one.
 */
export function routeSwitch(handlers: Partial<Record<OperationId, unknown>>): RouteHandler {
  const byKey = new Map(
    Object.entries(handlers).map(([id, handler]) => {
      const route = ROUTES[id as OperationId];
      return [`${route.method} ${route.path}`, handler as RouteHandler];
    }),
  );
  return (event, context) => {
    const handler = byKey.get(event.routeKey);
    // The route table maps only these routes here: another key is a wiring bug, not a client's request.
    if (!handler) throw new Error(`No handler for route ${event.routeKey}`);
    return handler(event, context);
  };
}
