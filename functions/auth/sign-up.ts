import { defineRoute } from '../../lib/http/handler.js';
import { AUTH_ROUTES } from '../../lib/infra/routes/auth.js';
import { signUp } from '../../lib/services/dashboard.js';

export const handler = defineRoute(AUTH_ROUTES.signUp, ({ deps, body }) => signUp(deps, body));
