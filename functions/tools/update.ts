import { maskTool } from '../../lib/domain/tool.js';
import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { changeTool } from '../../lib/services/tools.js';

export const handler = defineRoute(ROUTES.updateTool, async ({ deps, workspaceId, params, body }) =>
  maskTool(await changeTool(deps.db, deps.secrets, workspaceId, params.id, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS })),
);
