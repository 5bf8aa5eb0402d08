import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { getWebhookEndpoint, listDeliveries } from '../../lib/store/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.listWebhookDeliveries, async ({ deps, workspaceId, params, query }) => {
  // 404 for an endpoint that is not the workspace's, rather than an empty log.
  await getWebhookEndpoint(deps.db, deps.secrets, workspaceId, params.id);
  return listDeliveries(deps.db, workspaceId, params.id, query);
});
