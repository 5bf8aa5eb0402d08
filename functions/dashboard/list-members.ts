import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { listMembers } from '../../lib/store/users.js';

export const handler = defineRoute(DASHBOARD_ROUTES.listMembers, async ({ deps, workspaceId }) => ({ data: await listMembers(deps.db, workspaceId) }));
