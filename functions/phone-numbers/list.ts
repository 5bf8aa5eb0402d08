import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listPhoneNumbers } from '../../lib/store/phone-numbers.js';

export const handler = defineRoute(ROUTES.listPhoneNumbers, async ({ deps, workspaceId, query }) => {
  const page = await listPhoneNumbers(deps.db, workspaceId, query);
  return { ...page, data: page.data.map(toPhoneNumberView) };
});
