import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { getAgent } from '../../lib/store/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.getAgent, ({ deps, workspaceId, params }) =>
  getAgent(deps.db, workspaceId, params.id),
);
