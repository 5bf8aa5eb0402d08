import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { invite } from '../../lib/services/dashboard.js';

export const handler = defineRoute(DASHBOARD_ROUTES.createInvitation, ({ deps, workspaceId, caller, body }) =>
  invite(deps, { workspaceId, email: body.email, role: body.role, invitedBy: caller.user!.userId }),
);
