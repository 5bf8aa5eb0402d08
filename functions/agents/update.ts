import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { changeAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.updateAgent, ({ deps, workspaceId, params, body }) =>
  changeAgent(deps.db, workspaceId, params.id, body),
);
