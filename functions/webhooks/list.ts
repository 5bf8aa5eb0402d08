import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listWebhookEndpoints } from '../../lib/store/webhooks.js';

export const handler = defineRoute(ROUTES.listWebhookEndpoints, ({ deps, workspaceId, query }) =>
  listWebhookEndpoints(deps.db, workspaceId, query),
);
