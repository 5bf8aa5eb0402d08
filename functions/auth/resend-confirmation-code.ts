import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { DASHBOARD_REQUEST } from '../../lib/http/session-cookie.js';
import { resendConfirmationCode } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.resendConfirmationCode, async ({ deps, body }) => {
  await resendConfirmationCode(deps, body);
  return { message: 'If this address is waiting for confirmation, a new code is on its way.' };
}, DASHBOARD_REQUEST);
