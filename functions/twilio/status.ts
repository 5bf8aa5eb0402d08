import { defineRoute } from '../../lib/http/handler.js';
import { TWILIO_ROUTES } from '../../lib/infra/routes/twilio.js';
import { recordCallStatus } from '../../lib/services/twilio-webhooks.js';
import { webhookRequest } from '../../lib/http/webhook-request.js';

export const handler = defineRoute(TWILIO_ROUTES.twilioStatus, async ({ deps, event }) => {
  await recordCallStatus(deps, webhookRequest(event));
});
