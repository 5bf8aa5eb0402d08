import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listDncEntries } from '../../lib/store/dnc.js';

export const handler = defineRoute(ROUTES.listDoNotCall, ({ deps, workspaceId, query }) => listDncEntries(deps.db, workspaceId, query));
