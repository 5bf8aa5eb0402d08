import { defineRoute } from '../../lib/http/handler.js';
import { TWILIO_ROUTES } from '../../lib/infra/routes/twilio.js';
import { answerVoiceWebhook } from '../../lib/services/twilio-webhooks.js';
import { TWIML_CONTENT_TYPE } from '../../lib/vendors/telephony/twilio-webhook.js';
import { webhookRequest } from '../../lib/http/webhook-request.js';

export const handler = defineRoute(TWILIO_ROUTES.twilioVoice, async ({ deps, event }) => ({
  raw: true as const,
  contentType: TWIML_CONTENT_TYPE,
  body: await answerVoiceWebhook(deps, webhookRequest(event)),
}));
