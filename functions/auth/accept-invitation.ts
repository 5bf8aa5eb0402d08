import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST, readRefreshCookie, sessionAnswer } from '../../lib/http/session-cookie.js';
import { acceptInvitation } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.acceptInvitation, async ({ deps, body, event }) =>
  sessionAnswer(await acceptInvitation(deps, readRefreshCookie(event), body.token)), DASHBOARD_REQUEST);
