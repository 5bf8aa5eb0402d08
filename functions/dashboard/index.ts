import { routeGroup } from '../../lib/http/route-group.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { handler as createKey } from './create-key.js';
import { handler as createWorkspace } from './create-workspace.js';
import { handler as credits } from './credits.js';
import { handler as invite } from './invite.js';
import { handler as listKeys } from './list-keys.js';
import { handler as listMembers } from './list-members.js';
import { handler as revokeKey } from './revoke-key.js';

/** The dashboard's user-only routes and the credits overview in one function (lib/http/route-group.ts says why). */
export const handler = routeGroup([
  [ROUTES.listApiKeys, listKeys],
  [ROUTES.createApiKey, createKey],
  [ROUTES.revokeApiKey, revokeKey],
  [ROUTES.listMembers, listMembers],
  [ROUTES.createInvitation, invite],
  [ROUTES.createUserWorkspace, createWorkspace],
  [ROUTES.getCredits, credits],
]);
