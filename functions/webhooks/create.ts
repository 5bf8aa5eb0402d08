import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { createWebhookEndpoint } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.createWebhookEndpoint, ({ deps, workspaceId, body }) =>
  createWebhookEndpoint(deps, workspaceId, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }),
);
