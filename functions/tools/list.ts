import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listTools } from '../../lib/store/tools.js';

export const handler = defineRoute(ROUTES.listTools, async ({ deps, workspaceId }) => ({
  data: (await listTools(deps.db, workspaceId)).data,
}));
