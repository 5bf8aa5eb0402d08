import { defineRoute } from '../../lib/http/handler.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { deleteContact } from '../../lib/store/contacts.js';

export const handler = defineRoute(CONTACTS_ROUTES.deleteContact, ({ deps, workspaceId, params }) =>
  deleteContact(deps.db, workspaceId, params.id),
);
