import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { creditsOverview } from '../../lib/services/credits.js';

export const handler = defineRoute(DASHBOARD_ROUTES.getCredits, ({ deps, workspaceId }) => creditsOverview(deps, workspaceId));
