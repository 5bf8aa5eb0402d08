import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { listApiKeys } from '../../lib/store/workspaces.js';

export const handler = defineRoute(DASHBOARD_ROUTES.listApiKeys, async ({ deps, workspaceId }) => ({ data: await listApiKeys(deps.db, workspaceId) }));
