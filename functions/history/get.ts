import { defineRoute } from '../../lib/http/handler.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { getHistoryRecord } from '../../lib/store/history.js';

export const handler = defineRoute(HISTORY_ROUTES.getHistory, ({ deps, workspaceId, params }) =>
  getHistoryRecord(deps.db, workspaceId, params.id),
);
