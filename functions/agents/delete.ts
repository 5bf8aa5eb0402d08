import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteAgent } from '../../lib/store/agents.js';

export const handler = defineRoute(ROUTES.deleteAgent, ({ deps, workspaceId, params }) =>
  deleteAgent(deps.db, workspaceId, params.id),
);
