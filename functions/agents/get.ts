import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getAgent } from '../../lib/store/agents.js';

export const handler = defineRoute(ROUTES.getAgent, ({ deps, workspaceId, params }) =>
  getAgent(deps.db, workspaceId, params.id),
);
