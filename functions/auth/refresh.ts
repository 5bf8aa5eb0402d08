import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST, readRefreshCookie, sessionAnswer } from '../../lib/http/session-cookie.js';
import { refreshSession } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.refreshSession, async ({ deps, body, event }) =>
  sessionAnswer(await refreshSession(deps, readRefreshCookie(event), body?.workspaceId)), DASHBOARD_REQUEST);
