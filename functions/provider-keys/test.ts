import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { testProviderKey } from '../../lib/services/provider-keys.js';

export const handler = defineRoute(ROUTES.testProviderKey, ({ deps, workspaceId, params }) => testProviderKey(deps, workspaceId, params.provider));
