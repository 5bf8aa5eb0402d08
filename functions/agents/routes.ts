import { routeSwitch } from '../../lib/http/route-group.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { handler as createRoute } from './create.js';
import { handler as deleteRoute } from './delete.js';
import { handler as diffRoute } from './diff.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';
import { handler as publishRoute } from './publish.js';
import { handler as restoreRoute } from './restore.js';
import { handler as updateRoute } from './update.js';
import { handler as versionRoute } from './version.js';
import { handler as versionsRoute } from './versions.js';
import { handler as voicesRoute } from './voices.js';

/** The agent routes, one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(AGENTS_ROUTES, {
  createAgent: createRoute,
  listAgents: listRoute,
  getAgent: getRoute,
  updateAgent: updateRoute,
  publishAgent: publishRoute,
  listAgentVersions: versionsRoute,
  getAgentVersion: versionRoute,
  restoreAgentVersion: restoreRoute,
  diffAgent: diffRoute,
  deleteAgent: deleteRoute,
  listVoices: voicesRoute,
});
