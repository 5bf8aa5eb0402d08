import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST, sessionWithCookie } from '../../lib/http/session-cookie.js';
import { signIn } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.signIn, async ({ deps, body }) => {
  const { session, refreshToken } = await signIn(deps, body);
  return sessionWithCookie(deps.config, session, refreshToken);
}, DASHBOARD_REQUEST);
