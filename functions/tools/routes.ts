import { routeSwitch } from '../../lib/http/route-group.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { handler as createRoute } from './create.js';
import { handler as deleteRoute } from './delete.js';
import { handler as getRoute } from './get.js';
import { handler as listRoute } from './list.js';
import { handler as refreshRoute } from './refresh.js';
import { handler as templatesRoute } from './templates.js';
import { handler as updateRoute } from './update.js';

/** The tool routes (and the integration catalogue), one function. Each route's handler is its own module beside this one. */
export const handler = routeSwitch(TOOLS_ROUTES, {
  createTool: createRoute,
  listTools: listRoute,
  listToolTemplates: templatesRoute,
  getTool: getRoute,
  updateTool: updateRoute,
  refreshTool: refreshRoute,
  deleteTool: deleteRoute,
});
