import { defineRoute } from '../../lib/http/handler.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { deleteHistoryRecord } from '../../lib/store/history.js';

export const handler = defineRoute(HISTORY_ROUTES.deleteHistory, ({ deps, workspaceId, params }) =>
  deleteHistoryRecord(deps.db, workspaceId, params.id),
);
