import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { deleteAgent } from '../../lib/store/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.deleteAgent, ({ deps, workspaceId, params }) =>
  deleteAgent(deps.db, workspaceId, params.id),
);
