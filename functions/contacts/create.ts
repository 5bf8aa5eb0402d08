import { defineRoute } from '../../lib/http/handler.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { createContact } from '../../lib/services/contacts.js';

export const handler = defineRoute(CONTACTS_ROUTES.createContact, ({ deps, workspaceId, body }) =>
  createContact(deps.db, workspaceId, body),
);
