import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { signUp } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.signUp, ({ deps, body }) => signUp(deps, body));
