import { defineRoute } from '../../lib/http/handler.js';
import { DASHBOARD_ROUTES } from '../../lib/infra/routes/dashboard.js';
import { revokeWorkspaceKey } from '../../lib/services/api-keys.js';

export const handler = defineRoute(DASHBOARD_ROUTES.revokeApiKey, ({ deps, workspaceId, params }) => revokeWorkspaceKey(deps.db, workspaceId, params.id));
