import { defineRoute } from '../../lib/http/handler.js';
import { TWILIO_ROUTES } from '../../lib/infra/routes/twilio.js';
import { answerTransferGather } from '../../lib/services/twilio-webhooks.js';
import { TWIML_CONTENT_TYPE } from '../../lib/vendors/telephony/twilio-webhook.js';
import { webhookRequest } from '../../lib/http/webhook-request.js';
import { createTwilioCalls } from '../../lib/vendors/telephony/twilio-calls.js';

// Accepting bridges the caller's call through Twilio's REST API, so this webhook bundles the adapter.
export const handler = defineRoute(
  TWILIO_ROUTES.twilioTransfer,
  async ({ deps, event }) => ({
    raw: true as const,
    contentType: TWIML_CONTENT_TYPE,
    body: await answerTransferGather(deps, webhookRequest(event)),
  }),
  { telephony: createTwilioCalls },
);
