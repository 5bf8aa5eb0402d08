import { routeSwitch } from '../../lib/http/route-group.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { handler as deleteRoute } from './delete.js';
import { handler as eventsRoute } from './events.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';

/** The history routes but the recording link (the only one that may read recordings), one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(HISTORY_ROUTES, {
  listHistory: listRoute,
  getHistory: getRoute,
  getHistoryEvents: eventsRoute,
  deleteHistory: deleteRoute,
});
