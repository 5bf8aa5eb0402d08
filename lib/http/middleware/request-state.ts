import { getDeps, type Deps } from '../../deps.js';
import { setLogLevel } from '../../observability/log.js';
import type { AppState, RouteMiddleware } from './state.js';

/** Starts the request's state with the route's dependencies (built once per cold start) and the log level. */
export const requestState = (depsFor: (deps: Deps) => Deps): RouteMiddleware => ({
  before: async (request) => {
    const state: AppState = { started: Date.now() };
    request.event.app = state;
    const deps = depsFor(await getDeps());
    setLogLevel(deps.config.LOG_LEVEL);
    state.deps = deps;
  },
});
