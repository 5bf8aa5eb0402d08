import { BadRequestError, ValidationError } from '../domain/errors.js';
import { checkListedTools, MAX_MCP_TOOLS, type McpDiscovery } from '../domain/mcp-tool.js';
import { listMcpTools, loadMcpLibs, McpServerError, type McpServerSpec } from '../outbound/mcp.js';

/** Finds the tools an MCP server lists, or throws the 4xx that says why it cannot be used. */
export type DiscoverMcp = (server: McpServerSpec) => Promise<McpDiscovery>;

/**
 * Discovery's whole budget, connecting included. A save waits on it; a server that takes longer to list
 * its tools would also keep callers waiting on every tool call.
 */
export const MCP_DISCOVERY_TIMEOUT_MS = 8_000;

/**
 * Discovery at save and refresh: lists the server's tools through the SDK (lib/outbound/mcp.ts) and checks
 * them against the limits (lib/domain/mcp-tool.ts). `allowedHosts` is TOOL_ALLOWED_HOSTS.
 */
export function mcpDiscoverer(allowedHosts: readonly string[]): DiscoverMcp {
  return async (server) => {
    const libs = await loadMcpLibs();
    let listed;
    try {
      listed = await listMcpTools(libs, { url: server.url, headers: server.headers }, { allowedHosts, timeoutMs: MCP_DISCOVERY_TIMEOUT_MS }, MAX_MCP_TOOLS);
    } catch (error) {
      if (!(error instanceof McpServerError)) throw error;
      if (error.reason === 'refused') {
        throw new ValidationError([{ field: 'config.url', message: `config.url is ${error.message}; tools may only call public hosts` }]);
      }
      const code = error.reason === 'invalid' || error.reason === 'failed' ? 'mcp_server_invalid' : 'mcp_server_unreachable';
      // The server's own words can be long (an HTML error page); the first few hundred characters say enough.
      const said = error.message.slice(0, 300);
      throw new BadRequestError(`The MCP server's tools could not be listed: ${said}`, [{ field: 'config.url', message: said }], code);
    }
    return { transport: listed.transport, tools: checkListedTools(listed.tools), refreshedAt: new Date().toISOString() };
  };
}
