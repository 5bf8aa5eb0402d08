import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';
import { releasePhoneNumber } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(ROUTES.deletePhoneNumber, ({ deps, workspaceId, params }) =>
  releasePhoneNumber(deps, workspaceId, params.id),
  { telephony: createTwilioTelephony },
);
