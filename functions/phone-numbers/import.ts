import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { createTwilioNumbers } from '../../lib/vendors/telephony/twilio-numbers.js';
import { importPhoneNumber } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.importPhoneNumber, ({ deps, workspaceId, body }) =>
  importPhoneNumber(deps, workspaceId, body),
  { telephony: createTwilioNumbers },
);
