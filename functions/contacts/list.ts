import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { listContacts } from '../../lib/store/contacts.js';

export const handler = defineRoute(ROUTES.listContacts, ({ deps, workspaceId, query }) =>
  listContacts(deps.db, workspaceId, query),
);
