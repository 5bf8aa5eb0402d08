import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteHistoryRecord } from '../../lib/store/history.js';

export const handler = defineRoute(ROUTES.deleteHistory, ({ deps, workspaceId, params }) =>
  deleteHistoryRecord(deps.db, workspaceId, params.id),
);
