import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { recordCallStatus } from '../../lib/services/twilio-webhooks.js';
import { webhookRequest } from '../../lib/http/webhook-request.js';

export const handler = defineRoute(ROUTES.twilioStatus, async ({ deps, event }) => {
  await recordCallStatus(deps, webhookRequest(event));
});
