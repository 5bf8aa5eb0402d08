import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listHistory } from '../../lib/store/history.js';

export const handler = defineRoute(ROUTES.listHistory, ({ deps, workspaceId, query }) =>
  listHistory(deps.db, workspaceId, query),
);
