import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { deleteWebhookEndpoint } from '../../lib/store/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.deleteWebhookEndpoint, ({ deps, workspaceId, params }) =>
  deleteWebhookEndpoint(deps.db, workspaceId, params.id),
);
