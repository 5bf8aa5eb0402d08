import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { webhookSettings } from '../../lib/services/webhooks.js';

export const handler = defineRoute(ROUTES.getWebhookSettings, ({ deps, workspaceId }) => webhookSettings(deps.db, workspaceId));
