import type { RouteSpec } from '../../infra/routes.js';
import { rateLimitHeaders } from '../../services/rate-limits.js';
import { corsHeaders } from './cors.js';
import type { RouteMiddleware } from './state.js';

/** A successful answer carries the route's CORS headers and the request's RateLimit fields. */
export const responseHeaders = (route: RouteSpec): RouteMiddleware => ({
  after: async (request) => {
    const state = request.event.app;
    const response = request.response;
    if (response && (route.cors || state?.rate)) {
      // The route built this headers object for this response alone: added to in place, not copied per field group.
      response.headers = Object.assign(response.headers ?? {}, route.cors ? corsHeaders(request.event) : undefined, state?.rate ? rateLimitHeaders(state.rate) : undefined);
    }
  },
});
