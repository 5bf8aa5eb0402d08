import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST } from '../../lib/http/session-cookie.js';
import { signUp } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.signUp, ({ deps, body }) => signUp(deps, body), DASHBOARD_REQUEST);
