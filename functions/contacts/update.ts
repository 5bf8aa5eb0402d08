import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { changeContact } from '../../lib/services/contacts.js';

export const handler = defineRoute(ROUTES.updateContact, ({ deps, workspaceId, params, body }) =>
  changeContact(deps.db, workspaceId, params.id, body),
);
