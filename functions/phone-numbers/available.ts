import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { createTwilioSearch } from '../../lib/vendors/telephony/twilio-search.js';
import { searchAvailableNumbers } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.searchPhoneNumbers, ({ deps, query }) => searchAvailableNumbers(deps, query), {
  telephony: createTwilioSearch,
});
