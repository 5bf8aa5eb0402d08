import { maskAgent } from '../../lib/domain/agent-llm.js';
import { agentView } from '../../lib/domain/agent-version.js';
import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { getAgent } from '../../lib/store/agents.js';

export const handler = defineRoute(AGENTS_ROUTES.getAgent, async ({ deps, workspaceId, params }) =>
  agentView(await getAgent(deps.db, workspaceId, params.id), maskAgent),
);
