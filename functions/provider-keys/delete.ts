import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteProviderKey } from '../../lib/store/provider-keys.js';

export const handler = defineRoute(ROUTES.deleteProviderKey, ({ deps, workspaceId, params }) => deleteProviderKey(deps.db, workspaceId, params.provider));
