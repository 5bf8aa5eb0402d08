import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { assertDashboardRequest, readRefreshCookie, sessionAnswer } from '../../lib/http/session-cookie.js';
import { acceptInvitation } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.acceptInvitation, async ({ deps, body, event }) => {
  assertDashboardRequest(event, deps.config);
  return sessionAnswer(await acceptInvitation(deps, readRefreshCookie(event), body.token));
});
