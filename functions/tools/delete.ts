import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { removeTool } from '../../lib/services/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.deleteTool, ({ deps, workspaceId, params }) =>
  removeTool(deps.db, workspaceId, params.id),
);
