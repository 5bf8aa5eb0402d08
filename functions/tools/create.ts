import { defineRoute } from '../../lib/http/handler.js';
import { TOOLS_ROUTES } from '../../lib/infra/routes/tools.js';
import { mcpDiscoverer } from '../../lib/services/mcp-discovery.js';
import { createTool } from '../../lib/services/tools.js';

export const handler = defineRoute(TOOLS_ROUTES.createTool, ({ deps, workspaceId, body }) =>
  createTool(deps.db, deps.secrets, workspaceId, body, { allowedHosts: deps.config.TOOL_ALLOWED_HOSTS }, mcpDiscoverer(deps.config.TOOL_ALLOWED_HOSTS)),
);
