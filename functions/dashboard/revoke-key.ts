import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { revokeApiKey } from '../../lib/store/workspaces.js';

export const handler = defineRoute(ROUTES.revokeApiKey, ({ deps, workspaceId, params }) => revokeApiKey(deps.db, workspaceId, params.id));
