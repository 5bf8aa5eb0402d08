import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { getAgent } from '../../lib/store/agents.js';
import { listVersions } from '../../lib/store/agent-versions.js';

export const handler = defineRoute(AGENTS_ROUTES.listAgentVersions, async ({ deps, workspaceId, params, query }) => {
  const page = await listVersions(deps.db, await getAgent(deps.db, workspaceId, params.id), query);
  return { ...page, data: page.data.map(({ agentId, version, note, publishedAt }) => ({ agentId, version, note, publishedAt })) };
});
