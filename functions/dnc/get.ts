import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getDncNumber } from '../../lib/services/dnc.js';

export const handler = defineRoute(ROUTES.getDoNotCall, ({ deps, workspaceId, params }) => getDncNumber(deps.db, workspaceId, params.number));
