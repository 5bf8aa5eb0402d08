import { maskTool } from '../../lib/domain/tool.js';
import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { mcpDiscoverer } from '../../lib/services/mcp-discovery.js';
import { refreshTool } from '../../lib/services/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.refreshTool, async ({ deps, workspaceId, params }) =>
  maskTool(await refreshTool(deps.db, deps.secrets, workspaceId, params.id, mcpDiscoverer(deps.config.TOOL_ALLOWED_HOSTS))),
);
