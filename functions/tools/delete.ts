import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { deleteTool } from '../../lib/store/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.deleteTool, ({ deps, workspaceId, params }) =>
  deleteTool(deps.db, workspaceId, params.id),
);
