import { fileTooLarge, HTTP_IMPORT_LIMITS } from '../../lib/domain/contact-import/index.js';
import { defineRoute } from '../../lib/http/handler.js';
import { readMultipartForm } from '../../lib/http/multipart.js';
import { CONTACTS_ROUTES } from '../../lib/infra/routes/contacts.js';
import { importUploadedContacts } from '../../lib/services/contact-import.js';

/** POST /api/contacts/upload: a multipart form with `file` (CSV or .xlsx) and `workspaceId`. */
export const handler = defineRoute(CONTACTS_ROUTES.uploadContacts, async ({ deps, workspaceId, event }) => {
  const form = await readMultipartForm(event, {
    fileField: 'file',
    maxFileBytes: HTTP_IMPORT_LIMITS.maxFileBytes,
    tooLarge: () => fileTooLarge(HTTP_IMPORT_LIMITS.maxFileBytes),
  });
  // API Gateway's 30 s clock started when it received the request, not when this handler did.
  return importUploadedContacts(deps.db, workspaceId, form, { startedAt: event.requestContext.timeEpoch, events: deps });
});
