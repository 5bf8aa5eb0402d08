import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { resetPassword } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.resetPassword, ({ deps, body }) => resetPassword(deps, body));
