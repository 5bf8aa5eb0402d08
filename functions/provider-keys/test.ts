import { defineRoute } from '../../lib/http/handler.js';
import { PROVIDER_KEYS_ROUTES } from '../../lib/infra/routes/provider-keys.js';
import { testProviderKey } from '../../lib/services/provider-keys.js';

export const handler = defineRoute(PROVIDER_KEYS_ROUTES.testProviderKey, ({ deps, workspaceId, params }) => testProviderKey(deps, workspaceId, params.provider));
