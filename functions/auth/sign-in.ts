import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { sessionWithCookie } from '../../lib/http/session-cookie.js';
import { signIn } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.signIn, async ({ deps, body }) => {
  const { session, refreshToken } = await signIn(deps, body);
  return sessionWithCookie(deps.config, session, refreshToken);
});
