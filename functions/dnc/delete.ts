import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteDncNumber } from '../../lib/services/dnc.js';

export const handler = defineRoute(ROUTES.deleteDoNotCall, ({ deps, workspaceId, params }) => deleteDncNumber(deps.db, workspaceId, params.number));
