import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { createUserWorkspace } from '../../lib/services/dashboard.js';

export const handler = defineRoute(DASHBOARD_ROUTES.createUserWorkspace, async ({ deps, caller, body }) => ({
  workspace: await createUserWorkspace(deps, caller.user!.userId, body.name),
}));
