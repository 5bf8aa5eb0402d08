import { defineRoute } from '../../lib/http/handler.js';
import { PROVIDER_KEYS_ROUTES } from '../../lib/infra/routes/provider-keys.js';
import { listProviderKeys } from '../../lib/store/provider-keys.js';

export const handler = defineRoute(PROVIDER_KEYS_ROUTES.listProviderKeys, async ({ deps, workspaceId }) => ({ data: await listProviderKeys(deps.db, workspaceId) }));
