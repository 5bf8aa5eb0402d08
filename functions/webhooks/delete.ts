import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { removeWebhookEndpoint } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.deleteWebhookEndpoint, ({ deps, workspaceId, params }) =>
  removeWebhookEndpoint(deps.db, workspaceId, params.id),
);
