import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteTool } from '../../lib/store/tools.js';

export const handler = defineRoute(ROUTES.deleteTool, ({ deps, workspaceId, params }) =>
  deleteTool(deps.db, workspaceId, params.id),
);
