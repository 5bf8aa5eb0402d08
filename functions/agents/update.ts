import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { changeAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(ROUTES.updateAgent, ({ deps, workspaceId, params, body }) =>
  changeAgent(deps.db, workspaceId, params.id, body),
);
