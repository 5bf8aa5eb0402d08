import { maskAgent } from '../../lib/domain/agent-llm.js';
import { agentView } from '../../lib/domain/agent-version.js';
import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { assertInCatalogues } from '../../lib/services/agent-catalogue.js';
import { changeAgent } from '../../lib/services/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.updateAgent, async ({ deps, workspaceId, params, body }) =>
  agentView(await changeAgent(deps.db, deps.secrets, workspaceId, params.id, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }, (fields) => assertInCatalogues(deps, workspaceId, fields)), maskAgent),
);
