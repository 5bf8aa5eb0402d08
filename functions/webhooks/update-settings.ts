import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { changeWebhookSettings } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.updateWebhookSettings, ({ deps, workspaceId, body }) =>
  changeWebhookSettings(deps.db, workspaceId, body),
);
