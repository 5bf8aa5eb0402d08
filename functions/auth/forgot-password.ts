import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST } from '../../lib/http/session-cookie.js';
import { forgotPassword } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.forgotPassword, async ({ deps, body }) => {
  await forgotPassword(deps, body);
  return { message: 'If an account exists for this address, a reset code is on its way.' };
}, DASHBOARD_REQUEST);
