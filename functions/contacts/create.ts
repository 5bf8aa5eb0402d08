import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { createContact } from '../../lib/services/contacts.js';

export const handler = defineRoute(ROUTES.createContact, ({ deps, workspaceId, body }) =>
  createContact(deps.db, workspaceId, body),
);
