import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { changeWebhookEndpoint } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.updateWebhookEndpoint, ({ deps, workspaceId, params, body }) =>
  changeWebhookEndpoint(deps, workspaceId, params.id, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }),
);
