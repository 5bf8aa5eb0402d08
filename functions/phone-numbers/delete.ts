import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { createTwilioNumbers } from '../../lib/vendors/telephony/twilio-numbers.js';
import { releasePhoneNumber } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.deletePhoneNumber, ({ deps, workspaceId, params }) =>
  releasePhoneNumber(deps, workspaceId, params.id),
  { telephony: createTwilioNumbers },
);
