import { maskTool } from '../../lib/domain/tool.js';
import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { mcpDiscoverer } from '../../lib/services/mcp-discovery.js';
import { changeTool } from '../../lib/services/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.updateTool, async ({ deps, workspaceId, params, body }) =>
  maskTool(await changeTool(deps.db, deps.secrets, workspaceId, params.id, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }, mcpDiscoverer(deps.config.TOOL_ALLOWED_HOSTS))),
);
