import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { rotateWebhookSecret } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.rotateWebhookSecret, ({ deps, workspaceId, params }) =>
  rotateWebhookSecret(deps, workspaceId, params.id),
);
