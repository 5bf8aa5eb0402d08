import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createTool } from '../../lib/services/tools.js';

export const handler = defineRoute(ROUTES.createTool, ({ deps, workspaceId, body }) =>
  createTool(deps.db, deps.secrets, workspaceId, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }),
);
