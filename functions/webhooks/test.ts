import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { sendTestEvent } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.sendWebhookTest, ({ deps, workspaceId, params }) =>
  sendTestEvent(deps, workspaceId, params.id),
);
