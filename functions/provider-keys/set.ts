import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { setProviderKey } from '../../lib/services/provider-keys.js';

export const handler = defineRoute(ROUTES.setProviderKey, async ({ deps, workspaceId, params, body }) =>
  (await setProviderKey(deps, workspaceId, params.provider, body)).view,
);
