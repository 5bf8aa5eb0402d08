import { maskAgent } from '../../lib/domain/agent-llm.js';
import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { assertInCatalogues } from '../../lib/services/agent-catalogue.js';
import { createAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.createAgent, async ({ deps, workspaceId, body }) =>
  maskAgent(await createAgent(deps.db, deps.secrets, workspaceId, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }, (fields) => assertInCatalogues(deps, workspaceId, fields))),
);
