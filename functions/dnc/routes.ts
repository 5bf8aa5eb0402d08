import { fileTooLarge, HTTP_IMPORT_LIMITS } from '../../lib/domain/contact-import/index.js';
import { defineRoute } from '../../lib/http/handler.js';
import { readMultipartForm } from '../../lib/http/multipart.js';
import { routeSwitch } from '../../lib/http/route-group.js';
import { DNC_ROUTES } from '../../lib/infra/routes/dnc.js';
import { addDncNumber, deleteDncNumber, getDncNumber, importDncFile } from '../../lib/services/dnc.js';
import { listDncEntries } from '../../lib/store/dnc.js';

/** The do-not-call routes (docs/campaigns.md, "Do not call"), one function. */
export const handler = routeSwitch(DNC_ROUTES, {
  addDoNotCall: defineRoute(DNC_ROUTES.addDoNotCall, ({ deps, workspaceId, body }) => addDncNumber(deps.db, workspaceId, body)),
  listDoNotCall: defineRoute(DNC_ROUTES.listDoNotCall, ({ deps, workspaceId, query }) => listDncEntries(deps.db, workspaceId, query)),
  getDoNotCall: defineRoute(DNC_ROUTES.getDoNotCall, ({ deps, workspaceId, params }) => getDncNumber(deps.db, workspaceId, params.number)),
  deleteDoNotCall: defineRoute(DNC_ROUTES.deleteDoNotCall, ({ deps, workspaceId, params }) => deleteDncNumber(deps.db, workspaceId, params.number)),
  // A multipart form: `file` (CSV of numbers), optional `workspaceId` and `defaultCountry`.
  uploadDoNotCall: defineRoute(DNC_ROUTES.uploadDoNotCall, async ({ deps, workspaceId, event }) => {
    const limit = HTTP_IMPORT_LIMITS.maxFileBytes;
    const form = await readMultipartForm(event, { fileField: 'file', maxFileBytes: limit, tooLarge: () => fileTooLarge(limit) });
    return importDncFile(deps.db, workspaceId, form);
  }),
});
