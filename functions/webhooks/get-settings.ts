import { defineRoute } from '../../lib/http/handler.js';
import { WEBHOOKS_ROUTES } from '../../lib/infra/routes/webhooks.js';
import { webhookSettings } from '../../lib/services/webhooks.js';

export const handler = defineRoute(WEBHOOKS_ROUTES.getWebhookSettings, ({ deps, workspaceId }) => webhookSettings(deps.db, workspaceId));
