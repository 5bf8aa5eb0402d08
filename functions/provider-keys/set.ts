import { defineRoute } from '../../lib/http/handler.js';
import { PROVIDER_KEYS_ROUTES } from '../../lib/infra/routes/provider-keys.js';
import { setProviderKey } from '../../lib/services/provider-keys.js';

export const handler = defineRoute(PROVIDER_KEYS_ROUTES.setProviderKey, async ({ deps, workspaceId, params, body }) =>
  (await setProviderKey(deps, workspaceId, params.provider, body)).view,
);
