import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteWebhookEndpoint } from '../../lib/store/webhooks.js';

export const handler = defineRoute(ROUTES.deleteWebhookEndpoint, ({ deps, workspaceId, params }) =>
  deleteWebhookEndpoint(deps.db, workspaceId, params.id),
);
