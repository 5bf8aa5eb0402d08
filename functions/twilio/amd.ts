import { defineRoute } from '../../lib/http/handler.js';
import { TWILIO_ROUTES } from '../../lib/infra/routes/twilio.js';
import { recordAmdVerdict } from '../../lib/services/twilio-webhooks.js';
import { webhookRequest } from '../../lib/http/webhook-request.js';
import { createTwilioCalls } from '../../lib/vendors/telephony/twilio-calls.js';

// The one Twilio webhook that calls Twilio back (hang up, or leave the message), so it bundles the adapter.
export const handler = defineRoute(
  TWILIO_ROUTES.twilioAmd,
  async ({ deps, event }) => {
    await recordAmdVerdict(deps, webhookRequest(event));
  },
  { telephony: createTwilioCalls },
);
