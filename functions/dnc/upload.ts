import { fileTooLarge, HTTP_IMPORT_LIMITS } from '../../lib/domain/contact-import/index.js';
import { defineRoute } from '../../lib/http/handler.js';
import { readMultipartForm } from '../../lib/http/multipart.js';
import { ROUTES } from '../../lib/infra/routes.js';
import { importDncFile } from '../../lib/services/dnc.js';

/** POST /api/do-not-call/upload: a multipart form with `file` (CSV of numbers) and optional `workspaceId`, `defaultCountry`. */
export const handler = defineRoute(ROUTES.uploadDoNotCall, async ({ deps, workspaceId, event }) => {
  const form = await readMultipartForm(event, { fileField: 'file', maxFileBytes: HTTP_IMPORT_LIMITS.maxFileBytes, tooLarge: () => fileTooLarge(HTTP_IMPORT_LIMITS.maxFileBytes) });
  return importDncFile(deps.db, workspaceId, form);
});
