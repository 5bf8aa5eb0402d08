import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { searchAvailableNumbers } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(ROUTES.searchPhoneNumbers, ({ deps, query }) => searchAvailableNumbers(deps, query), {
  telephony: createTwilioTelephony,
});
