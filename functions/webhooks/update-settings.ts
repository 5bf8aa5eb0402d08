import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { changeWebhookSettings } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.updateWebhookSettings, ({ deps, workspaceId, body }) =>
  changeWebhookSettings(deps.db, workspaceId, body),
);
