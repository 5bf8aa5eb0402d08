import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { listenToCall } from '../../lib/services/live-call-control.js';

export const handler = defineRoute(CALLS_ROUTES.listenToCall, ({ deps, workspaceId, params }) => listenToCall(deps, workspaceId, params.id));
