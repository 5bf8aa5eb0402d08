import { log } from '../../observability/log.js';
import type { RouteMiddleware } from './state.js';

/** One `request` line per answered request: its route, status and time (refusals are logged by error-response.ts). */
export const requestLog = (routeKey: string): RouteMiddleware => ({
  after: async (request) => {
    const state = request.event.app;
    log('info', 'request', {
      requestId: request.event.requestContext.requestId,
      route: routeKey,
      status: request.response?.statusCode,
      ms: state ? Date.now() - state.started : undefined,
    });
  },
});
