import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { deleteContact } from '../../lib/store/contacts.js';

export const handler = defineRoute(ROUTES.deleteContact, ({ deps, workspaceId, params }) =>
  deleteContact(deps.db, workspaceId, params.id),
);
