import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { sendTestEvent } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.sendWebhookTest, ({ deps, workspaceId, params }) =>
  sendTestEvent(deps, workspaceId, params.id),
);
