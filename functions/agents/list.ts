import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { listAgents } from '../../lib/store/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.listAgents, ({ deps, workspaceId, query }) =>
  listAgents(deps.db, workspaceId, query),
);
