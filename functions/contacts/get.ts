import { defineRoute } from '../../lib/http/handler.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { getContact } from '../../lib/store/contacts.js';

export const handler = defineRoute(CONTACTS_ROUTES.getContact, ({ deps, workspaceId, params }) =>
  getContact(deps.db, workspaceId, params.id),
);
