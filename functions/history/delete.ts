import { defineRoute } from '../../lib/http/handler.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { removeHistoryRecord } from '../../lib/services/history.js';

export const handler = defineRoute(HISTORY_ROUTES.deleteHistory, ({ deps, workspaceId, params }) =>
  removeHistoryRecord(deps.db, workspaceId, params.id),
);
