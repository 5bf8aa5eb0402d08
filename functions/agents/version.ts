import { maskAgent } from '../../lib/domain/agent-llm.js';
import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { getVersion } from '../../lib/store/agent-versions.js';

export const handler = defineRoute(AGENTS_ROUTES.getAgentVersion, async ({ deps, workspaceId, params }) => {
  const version = await getVersion(deps.db, workspaceId, params.id, params.version);
  return { ...version, agent: maskAgent(version.agent) };
});
