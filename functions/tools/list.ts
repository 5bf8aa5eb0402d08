import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { listTools } from '../../lib/store/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.listTools, async ({ deps, workspaceId }) => ({
  data: (await listTools(deps.db, workspaceId)).data,
}));
