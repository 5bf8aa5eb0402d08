import { routeGroup } from '../../lib/http/route-group.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { handler as createKey } from './create-key.js';
import { handler as createWorkspace } from './create-workspace.js';
import { handler as credits } from './credits.js';
import { handler as invite } from './invite.js';
import { handler as listKeys } from './list-keys.js';
import { handler as listMembers } from './list-members.js';
import { handler as revokeKey } from './revoke-key.js';

/** The dashboard's user-only routes and the credits overview in one function (lib/http/route-group.ts says why). */
export const handler = routeGroup([
  [DASHBOARD_ROUTES.listApiKeys, listKeys],
  [DASHBOARD_ROUTES.createApiKey, createKey],
  [DASHBOARD_ROUTES.revokeApiKey, revokeKey],
  [DASHBOARD_ROUTES.listMembers, listMembers],
  [DASHBOARD_ROUTES.createInvitation, invite],
  [DASHBOARD_ROUTES.createUserWorkspace, createWorkspace],
  [DASHBOARD_ROUTES.getCredits, credits],
]);
