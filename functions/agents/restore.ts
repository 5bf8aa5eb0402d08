import { maskAgent } from '../../lib/domain/agent-llm.js';
import { agentView } from '../../lib/domain/agent-version.js';
import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { restoreVersion } from '../../lib/services/agent-versions.js';

export const handler = defineRoute(AGENTS_ROUTES.restoreAgentVersion, async ({ deps, workspaceId, params, body }) =>
  agentView((await restoreVersion(deps.db, workspaceId, params.id, params.version, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS })).agent, maskAgent),
);
