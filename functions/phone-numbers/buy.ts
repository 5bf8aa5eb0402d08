import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { buyPhoneNumber } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(ROUTES.buyPhoneNumber, ({ deps, workspaceId, body }) =>
  buyPhoneNumber(deps, workspaceId, body),
  { telephony: createTwilioTelephony },
);
