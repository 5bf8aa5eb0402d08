import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { invite } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.createInvitation, ({ deps, workspaceId, caller, body }) =>
  invite(deps, { workspaceId, email: body.email, role: body.role, invitedBy: caller.user!.userId }),
);
