import { maskAgent } from '../../lib/domain/agent-llm.js';
import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { publishAgent } from '../../lib/services/agent-versions.js';

export const handler = defineRoute(AGENTS_ROUTES.publishAgent, async ({ deps, workspaceId, params, body }) => {
  const version = await publishAgent(deps.db, workspaceId, params.id, body.note, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS });
  return { ...version, agent: maskAgent(version.agent) };
});
