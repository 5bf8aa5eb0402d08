import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { rotateWebhookSecret } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.rotateWebhookSecret, ({ deps, workspaceId, params }) =>
  rotateWebhookSecret(deps, workspaceId, params.id),
);
