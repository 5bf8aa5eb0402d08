import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listMembers } from '../../lib/store/users.js';

export const handler = defineRoute(ROUTES.listMembers, async ({ deps, workspaceId }) => ({ data: await listMembers(deps.db, workspaceId) }));
