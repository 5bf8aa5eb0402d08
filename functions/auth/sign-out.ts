import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST, readRefreshCookie, signedOut } from '../../lib/http/session-cookie.js';
import { signOut } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.signOut, async ({ deps, event }) => {
  await signOut(deps, readRefreshCookie(event));
  return signedOut(deps.config);
}, DASHBOARD_REQUEST);
