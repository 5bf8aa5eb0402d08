import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { diffAgent } from '../../lib/services/agent-versions.js';

export const handler = defineRoute(AGENTS_ROUTES.diffAgent, ({ deps, workspaceId, params, query }) => diffAgent(deps.db, workspaceId, params.id, query));
