import { defineRoute } from '../../lib/http/handler.js';
import { AGENTS_ROUTES } from '../../lib/infra/routes/agents.js';
import { listVoices } from '../../lib/services/agent-catalogue.js';

export const handler = defineRoute(AGENTS_ROUTES.listVoices, ({ deps, workspaceId, query }) => listVoices(deps, workspaceId, query.provider));
