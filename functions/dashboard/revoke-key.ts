import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { revokeApiKey } from '../../lib/store/workspaces.js';

export const handler = defineRoute(DASHBOARD_ROUTES.revokeApiKey, ({ deps, workspaceId, params }) => revokeApiKey(deps.db, workspaceId, params.id));
