import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { removeAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.deleteAgent, ({ deps, workspaceId, params }) =>
  removeAgent(deps.db, workspaceId, params.id),
);
