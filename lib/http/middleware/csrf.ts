import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Deps } from '../../deps.js';
import type { RouteSpec } from '../../infra/routes.js';
import { stateOf, type RouteMiddleware } from './state.js';

/** A route's CSRF rule (lib/http/session-cookie.ts, DASHBOARD_REQUEST), handed in by the route module. */
export type DashboardRequestRule = (event: APIGatewayProxyEventV2, config: Deps['config']) => void;

/** The dashboard's /auth routes refuse any other page's request before it costs a count or a read. */
export const csrf = (route: RouteSpec, rule: DashboardRequestRule | undefined): RouteMiddleware => ({
  before: async (request) => {
    if (route.csrf) rule!(request.event, stateOf(request.event).deps!.config);
  },
});
