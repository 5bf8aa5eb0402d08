import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getPhoneNumber } from '../../lib/store/phone-numbers.js';

export const handler = defineRoute(ROUTES.getPhoneNumber, async ({ deps, workspaceId, params }) =>
  toPhoneNumberView(await getPhoneNumber(deps.db, workspaceId, params.id)),
);
