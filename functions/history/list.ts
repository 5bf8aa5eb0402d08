import { defineRoute } from '../../lib/http/handler.js';
import { HISTORY_ROUTES } from '../../lib/infra/routes/history.js';
import { listHistory } from '../../lib/store/history.js';

export const handler = defineRoute(HISTORY_ROUTES.listHistory, ({ deps, workspaceId, query }) =>
  listHistory(deps.db, workspaceId, query),
);
