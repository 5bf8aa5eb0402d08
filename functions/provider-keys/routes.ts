import { routeSwitch } from '../../lib/http/route-group.js';
import { PROVIDER_KEYS_ROUTES } from '../../lib/infra/routes/provider-keys.js';
import { handler as deleteRoute } from './delete.js';
import { handler as listRoute } from './list.js';
import { handler as setRoute } from './set.js';
import { handler as standInsRoute } from './stand-ins.js';
import { handler as testRoute } from './test.js';

/** The provider-key routes and the simulated-vendor answer, one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(PROVIDER_KEYS_ROUTES, {
  listProviderKeys: listRoute,
  setProviderKey: setRoute,
  testProviderKey: testRoute,
  deleteProviderKey: deleteRoute,
  listStandIns: standInsRoute,
});
