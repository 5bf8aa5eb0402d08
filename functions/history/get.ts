import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getHistoryRecord } from '../../lib/store/history.js';

export const handler = defineRoute(ROUTES.getHistory, ({ deps, workspaceId, params }) =>
  getHistoryRecord(deps.db, workspaceId, params.id),
);
