import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { getWebhookEndpoint } from '../../lib/store/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.getWebhookEndpoint, ({ deps, workspaceId, params }) =>
  getWebhookEndpoint(deps.db, deps.secrets, workspaceId, params.id),
);
