import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { createAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.createAgent, ({ deps, workspaceId, body }) =>
  createAgent(deps.db, workspaceId, body),
);
