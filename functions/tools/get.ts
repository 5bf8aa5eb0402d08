import { maskTool } from '../../lib/domain/tool.js';
import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { getTool } from '../../lib/store/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.getTool, async ({ deps, workspaceId, params }) =>
  maskTool(await getTool(deps.db, deps.secrets, workspaceId, params.id)),
);
