import { routeSwitch } from '../../lib/http/route-group.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';
import { handler as listenRoute } from './listen.js';
import { context, end, say, transfer } from './control.js';

/** The routes that read calls (live and ended) and steer live ones, one function. Each route's handler is in a module beside this one. */
export const handler = routeSwitch(CALLS_ROUTES, {
  listCalls: listRoute,
  getCall: getRoute,
  endCall: end,
  sayOnCall: say,
  addCallContext: context,
  transferCall: transfer,
  listenToCall: listenRoute,
});
