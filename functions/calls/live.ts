import { routeSwitch } from '../../lib/http/route-group.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';

/** The routes that read calls (live and ended), one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(CALLS_ROUTES, {
  listCalls: listRoute,
  getCall: getRoute,
});
