import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { assignAgent } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.updatePhoneNumber, async ({ deps, workspaceId, params, body }) =>
  toPhoneNumberView(await assignAgent(deps, workspaceId, params.id, body)),
);
