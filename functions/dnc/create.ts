import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { addDncNumber } from '../../lib/services/dnc.js';

export const handler = defineRoute(ROUTES.addDoNotCall, ({ deps, workspaceId, body }) => addDncNumber(deps.db, workspaceId, body));
