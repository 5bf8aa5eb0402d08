import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST } from '../../lib/http/session-cookie.js';
import { resetPassword } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.resetPassword, ({ deps, body }) => resetPassword(deps, body), DASHBOARD_REQUEST);
