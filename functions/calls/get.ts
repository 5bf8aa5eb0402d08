import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { getCallView } from '../../lib/services/live-calls.js';

export const handler = defineRoute(CALLS_ROUTES.getCall, ({ deps, workspaceId, params }) => getCallView(deps, workspaceId, params.id));
