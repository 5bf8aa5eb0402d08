import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listAgents } from '../../lib/store/agents.js';

export const handler = defineRoute(ROUTES.listAgents, ({ deps, workspaceId, query }) =>
  listAgents(deps.db, workspaceId, query),
);
