import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createWebhookEndpoint } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.createWebhookEndpoint, ({ deps, workspaceId, body }) =>
  createWebhookEndpoint(deps, workspaceId, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }),
);
