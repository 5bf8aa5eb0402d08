import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { getPhoneNumber } from '../../lib/store/phone-numbers.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.getPhoneNumber, async ({ deps, workspaceId, params }) =>
  toPhoneNumberView(await getPhoneNumber(deps.db, workspaceId, params.id)),
);
