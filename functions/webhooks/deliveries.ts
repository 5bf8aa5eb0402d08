import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { listEndpointDeliveries } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.listWebhookDeliveries, ({ deps, workspaceId, params, query }) =>
  listEndpointDeliveries(deps, workspaceId, params.id, query),
);
