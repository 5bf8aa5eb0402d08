import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { listPhoneNumbers } from '../../lib/store/phone-numbers.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.listPhoneNumbers, async ({ deps, workspaceId, query }) => {
  const page = await listPhoneNumbers(deps.db, workspaceId, query);
  return { ...page, data: page.data.map(toPhoneNumberView) };
});
