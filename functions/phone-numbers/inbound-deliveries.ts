import { defineRoute } from '../../lib/http/handler.js';
import { PHONE_NUMBERS_ROUTES } from '../../lib/infra/routes/phone-numbers.js';
import { listInboundDeliveries } from '../../lib/services/inbound-deliveries.js';

export const handler = defineRoute(PHONE_NUMBERS_ROUTES.listInboundDeliveries, ({ deps, workspaceId, params, query }) =>
  listInboundDeliveries(deps, workspaceId, params.id, query),
);
