import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST } from '../../lib/http/session-cookie.js';
import { confirmSignUp } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.confirmSignUp, ({ deps, body }) => confirmSignUp(deps, body), DASHBOARD_REQUEST);
