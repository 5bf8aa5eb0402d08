import { defineRoute } from '../../lib/http/handler.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { changeContact } from '../../lib/services/contacts.js';

export const handler = defineRoute(CONTACTS_ROUTES.updateContact, ({ deps, workspaceId, params, body }) =>
  changeContact(deps.db, workspaceId, params.id, body),
);
