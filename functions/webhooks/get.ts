import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getWebhookEndpoint } from '../../lib/store/webhooks.js';

export const handler = defineRoute(ROUTES.getWebhookEndpoint, ({ deps, workspaceId, params }) =>
  getWebhookEndpoint(deps.db, deps.secrets, workspaceId, params.id),
);
