import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(ROUTES.createAgent, ({ deps, workspaceId, body }) =>
  createAgent(deps.db, workspaceId, body),
);
