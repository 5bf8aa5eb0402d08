import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { assertDashboardRequest, readRefreshCookie, signedOut } from '../../lib/http/session-cookie.js';
import { signOut } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.signOut, async ({ deps, event }) => {
  assertDashboardRequest(event, deps.config);
  await signOut(deps, readRefreshCookie(event));
  return signedOut(deps.config);
});
