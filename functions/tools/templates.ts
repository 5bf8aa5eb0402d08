import { listTemplates } from '../../lib/domain/tool-templates.js';
import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';

/** The integration catalogue: the same for every workspace, so the key only has to be valid. */
export const handler = defineRoute(TOOLS_ROUTES.listToolTemplates, async () => ({ data: listTemplates() }));
