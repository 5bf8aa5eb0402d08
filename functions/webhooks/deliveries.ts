import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getWebhookEndpoint, listDeliveries } from '../../lib/store/webhooks.js';

export const handler = defineRoute(ROUTES.listWebhookDeliveries, async ({ deps, workspaceId, params, query }) => {
  // 404 for an endpoint that is not the workspace's, rather than an empty log.
  await getWebhookEndpoint(deps.db, deps.secrets, workspaceId, params.id);
  return listDeliveries(deps.db, workspaceId, params.id, query);
});
