import { defineRoute } from '../../lib/http/handler.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { removeContact } from '../../lib/services/contacts.js';

export const handler = defineRoute(CONTACTS_ROUTES.deleteContact, ({ deps, workspaceId, params }) =>
  removeContact(deps.db, workspaceId, params.id),
);
