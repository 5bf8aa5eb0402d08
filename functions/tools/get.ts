import { maskTool } from '../../lib/domain/tool.js';
import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getTool } from '../../lib/store/tools.js';

export const handler = defineRoute(ROUTES.getTool, async ({ deps, workspaceId, params }) =>
  maskTool(await getTool(deps.db, deps.secrets, workspaceId, params.id)),
);
