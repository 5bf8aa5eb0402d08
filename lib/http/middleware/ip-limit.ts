import { AppError } from '../../domain/errors.js';
import type { RouteSpec } from '../../infra/routes.js';
import { COUNTS_REFUSALS_ONLY, RateLimitedError, rateExhausted, ratePolicies, takeRate } from '../../services/rate-limits.js';
import { sourceIp } from '../source-ip.js';
import { stateOf, type RouteMiddleware } from './state.js';

/**
 * Public routes are counted per source IP before any other work. Webhooks count only what they refuse
 * (COUNTS_REFUSALS_ONLY, counted in onError, which runs before the error answer is built): an address that
 * used its window is refused here, before the signature check.
 */
export const ipLimit = (route: RouteSpec): RouteMiddleware => {
  const countsRefusals = route.ipLimit !== undefined && COUNTS_REFUSALS_ONLY.has(route.ipLimit);
  return {
    before: async (request) => {
      if (!route.ipLimit) return;
      const state = stateOf(request.event);
      const deps = state.deps!;
      const policy = ratePolicies(deps.config)[route.ipLimit];
      if (countsRefusals) {
        const blocked = rateExhausted(deps.db, policy, sourceIp(request.event));
        if (blocked) throw new RateLimitedError(blocked);
      } else {
        state.rate = await takeRate(deps.db, policy, sourceIp(request.event));
        if (!state.rate.allowed) throw new RateLimitedError(state.rate);
      }
    },
    onError: async (request) => {
      const error = request.error;
      const app = request.event.app;
      if (!countsRefusals || !(error instanceof AppError) || error.status >= 500 || !app?.deps || error instanceof RateLimitedError) return;
      app.rate = await takeRate(app.deps.db, ratePolicies(app.deps.config)[route.ipLimit!], sourceIp(request.event));
    },
  };
};
