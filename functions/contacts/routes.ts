import { routeSwitch } from '../../lib/http/route-group.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { handler as createRoute } from './create.js';
import { handler as deleteRoute } from './delete.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';
import { handler as updateRoute } from './update.js';

/** The contact routes but the upload (which bundles the spreadsheet parsers), one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(CONTACTS_ROUTES, {
  createContact: createRoute,
  listContacts: listRoute,
  getContact: getRoute,
  updateContact: updateRoute,
  deleteContact: deleteRoute,
});
