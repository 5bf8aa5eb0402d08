import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { listWebhookEndpoints } from '../../lib/store/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.listWebhookEndpoints, ({ deps, workspaceId, query }) =>
  listWebhookEndpoints(deps.db, workspaceId, query),
);
