import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { replayWebhookEvents } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.replayWebhookEvents, ({ deps, workspaceId, params, body }) =>
  replayWebhookEvents(deps, workspaceId, params.id, body),
);
