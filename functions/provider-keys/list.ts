import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listProviderKeys } from '../../lib/store/provider-keys.js';

export const handler = defineRoute(ROUTES.listProviderKeys, async ({ deps, workspaceId }) => ({ data: await listProviderKeys(deps.db, workspaceId) }));
