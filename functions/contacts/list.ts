import { defineRoute } from '../../lib/http/handler.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { listContacts } from '../../lib/store/contacts.js';

export const handler = defineRoute(CONTACTS_ROUTES.listContacts, ({ deps, workspaceId, query }) =>
  listContacts(deps.db, workspaceId, query),
);
