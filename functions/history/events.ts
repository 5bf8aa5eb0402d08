import { defineRoute } from '../../lib/http/handler.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { callTimeline } from '../../lib/services/history.js';

export const handler = defineRoute(HISTORY_ROUTES.getHistoryEvents, ({ deps, workspaceId, params }) => callTimeline(deps.db, workspaceId, params.id));
