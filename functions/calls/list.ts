import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { listCallsInProgress } from '../../lib/services/live-calls.js';

export const handler = defineRoute(CALLS_ROUTES.listCalls, ({ deps, workspaceId, query }) => listCallsInProgress(deps, workspaceId, query));
