import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { confirmSignUp } from '../../lib/services/dashboard.js';

export const handler = defineRoute(ROUTES.confirmSignUp, ({ deps, body }) => confirmSignUp(deps, body));
