import { defineRoute } from '../../lib/http/handler.js';
import { PROVIDER_KEYS_ROUTES } from '../../lib/infra/routes/provider-keys.js';
import { removeProviderKey } from '../../lib/services/provider-keys.js';

export const handler = defineRoute(PROVIDER_KEYS_ROUTES.deleteProviderKey, ({ deps, workspaceId, params }) => removeProviderKey(deps.db, workspaceId, params.provider));
