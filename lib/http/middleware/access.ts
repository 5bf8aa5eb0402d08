import { ownerRequired, userSessionRequired } from '../../domain/access.js';
import type { RouteSpec } from '../../infra/routes.js';
import { stateOf, type RouteMiddleware } from './state.js';

/** A route for dashboard users only refuses API keys, and an owner-only route refuses members (docs/dashboard.md). */
export const access = (route: RouteSpec): RouteMiddleware => ({
  before: async (request) => {
    if (!route.auth || !route.access) return;
    const caller = stateOf(request.event).caller!;
    if (!caller.user) throw userSessionRequired();
    if (route.access === 'owner' && caller.user.role !== 'owner') throw ownerRequired();
  },
});
