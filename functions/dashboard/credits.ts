import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { creditsOverview } from '../../lib/services/credits.js';

export const handler = defineRoute(ROUTES.getCredits, ({ deps, workspaceId }) => creditsOverview(deps, workspaceId));
