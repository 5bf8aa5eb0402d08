import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createUserWorkspace } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.createUserWorkspace, async ({ deps, caller, body }) => ({
  workspace: await createUserWorkspace(deps, caller.user!.userId, body.name),
}));
