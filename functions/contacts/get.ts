import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { getContact } from '../../lib/store/contacts.js';

export const handler = defineRoute(ROUTES.getContact, ({ deps, workspaceId, params }) =>
  getContact(deps.db, workspaceId, params.id),
);
