import { toPhoneNumberView } from '../../lib/domain/phone-number.js';
import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { assignAgent } from '../../lib/services/phone-numbers.js';

export const handler = defineRoute(ROUTES.updatePhoneNumber, async ({ deps, workspaceId, params, body }) =>
  toPhoneNumberView(await assignAgent(deps, workspaceId, params.id, body)),
);
