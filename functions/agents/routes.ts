import { routeSwitch } from '../../lib/http/route-group.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { handler as createRoute } from './create.js';
import { handler as deleteRoute } from './delete.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';
import { handler as updateRoute } from './update.js';
import { handler as voicesRoute } from './voices.js';

/** The agent routes, one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(AGENTS_ROUTES, {
  createAgent: createRoute,
  listAgents: listRoute,
  getAgent: getRoute,
  updateAgent: updateRoute,
  deleteAgent: deleteRoute,
  listVoices: voicesRoute,
});
