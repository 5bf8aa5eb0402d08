import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { replayWebhookEvents } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.replayWebhookEvents, ({ deps, workspaceId, params, body }) =>
  replayWebhookEvents(deps, workspaceId, params.id, body),
);
