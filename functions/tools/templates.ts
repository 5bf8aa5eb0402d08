import { listTemplates } from '../../lib/domain/tool-templates.js';
import { defineRoute } from '../../lib/http/handler.js';
import { ROUTES } from '../../lib/infra/routes.js';

/** The integration catalogue: the same for every workspace, so the key only has to be valid. */
export const handler = defineRoute(ROUTES.listToolTemplates, async () => ({ data: listTemplates() }));
