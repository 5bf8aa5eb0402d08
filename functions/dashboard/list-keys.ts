import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listApiKeys } from '../../lib/store/workspaces.js';

export const handler = defineRoute(ROUTES.listApiKeys, async ({ deps, workspaceId }) => ({ data: await listApiKeys(deps.db, workspaceId) }));
