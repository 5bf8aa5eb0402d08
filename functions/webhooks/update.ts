import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { changeWebhookEndpoint } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.updateWebhookEndpoint, ({ deps, workspaceId, params, body }) =>
  changeWebhookEndpoint(deps, workspaceId, params.id, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }),
);
