import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { importPhoneNumber } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(ROUTES.importPhoneNumber, ({ deps, workspaceId, body }) =>
  importPhoneNumber(deps, workspaceId, body),
  { telephony: createTwilioTelephony },
);
