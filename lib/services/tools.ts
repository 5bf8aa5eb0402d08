import { BadRequestError, ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { MASK, type Tool, type ToolCreate, type ToolPolicy, type ToolUpdate } from '../domain/tool.js';
import { assertToolIsCoherent } from '../domain/tool-coherence.js';
import { unknownAllowedTools, type McpDiscovery } from '../domain/mcp-tool.js';
import type { DiscoverMcp } from './mcp-discovery.js';
import { countOf } from '../store/collection.js';
import type { Db } from '../store/dynamo.js';
import type { SecretBox } from '../store/secret-box.js';
import { getTool, MAX_TOOLS_PER_WORKSPACE, putNewTool, saveTool, deleteTool } from '../store/tools.js';

/** An mcp tool's server discovered, its allow-list checked against what the server lists (400 otherwise). */
async function discoverFor(tool: Pick<Tool, 'config'>, discover: DiscoverMcp | undefined, checkAllowList: boolean): Promise<McpDiscovery> {
  if (!discover) throw new Error('an mcp tool is saved without an MCP discoverer');
  const found = await discover({ url: tool.config?.url ?? '', headers: tool.config?.headers ?? {} });
  if (checkAllowList) assertAllowListed(tool, found);
  return found;
}

/** Every `config.allowed_tools` name is one the server lists (an entry that names nothing would do nothing). */
function assertAllowListed(tool: Pick<Tool, 'config'>, found: McpDiscovery): void {
  const unknown = unknownAllowedTools(tool.config?.allowed_tools, found.tools);
  if (unknown.length === 0) return;
  const listed = found.tools.map((t) => t.name).join(', ') || 'none';
  throw new ValidationError(unknown.map((name) => ({ field: 'config.allowed_tools', message: `the server lists no tool "${name}" (it lists: ${listed})` })));
}

/**
 * `policy` carries TOOL_ALLOWED_HOSTS (empty in production): see lib/domain/ssrf.ts. An `mcp` tool's server
 * is asked for its tools through `discover` before anything is stored (lib/services/mcp-discovery.ts).
 */
export async function createTool(db: Db, box: SecretBox, ws: string, input: ToolCreate, policy?: ToolPolicy, discover?: DiscoverMcp): Promise<Tool> {
  assertToolIsCoherent(input, policy);
  if ((await countOf(db, ws, 'tool')) >= MAX_TOOLS_PER_WORKSPACE) {
    throw new BadRequestError(`A workspace holds at most ${MAX_TOOLS_PER_WORKSPACE} tools.`, [], 'limit_exceeded');
  }
  const mcp = input.type === 'mcp' ? await discoverFor(input, discover, true) : undefined;
  const now = new Date().toISOString();
  const tool: Tool = { ...input, ...(mcp ? { mcp } : {}), _id: newId('tool'), workspaceId: ws, createdAt: now, updatedAt: now };
  await putNewTool(db, box, tool);
  return tool;
}

/**
 * Applies the fields sent. `config` merges key by key; within `config.headers`, a value equal to the mask
 * keeps the stored secret, so a client may send back what it read.
 */
export async function changeTool(
  db: Db,
  box: SecretBox,
  ws: string,
  id: string,
  input: ToolUpdate,
  policy?: ToolPolicy,
  discover?: DiscoverMcp,
): Promise<Tool> {
  const current = await getTool(db, box, ws, id);
  const { workspaceId: _ignored, config, ...rest } = input;
  if (rest.type !== undefined && rest.type !== current.type && (rest.type === 'mcp' || current.type === 'mcp')) {
    throw new BadRequestError('A tool cannot change to or from type mcp; create a new tool instead.', [{ field: 'type', message: `the tool is ${current.type}` }]);
  }
  let mergedConfig = current.config;
  if (config) {
    const headers = config.headers
      ? Object.fromEntries(
          Object.entries(config.headers).map(([name, value]) => {
            if (value !== MASK) return [name, value];
            // Own properties only: a header named "toString" must not find Object.prototype's.
            const storedHeaders = current.config?.headers ?? {};
            const stored = Object.hasOwn(storedHeaders, name) ? storedHeaders[name] : undefined;
            if (stored === undefined) {
              throw new BadRequestError(`Header ${name} has no stored value to keep; send its real value.`, [
                { field: `config.headers.${name}`, message: 'masked value for an unknown header' },
              ]);
            }
            return [name, stored];
          }),
        )
      : current.config?.headers;
    const { allowed_tools: allowed, ...sent } = config;
    mergedConfig = { ...current.config, ...sent, ...(headers ? { headers } : {}) };
    // null clears the allow-list: every tool the server lists is offered again.
    if (allowed === null) delete mergedConfig.allowed_tools;
    else if (allowed !== undefined) mergedConfig.allowed_tools = allowed;
  }
  const next: Tool = { ...current, ...rest, config: mergedConfig, updatedAt: new Date().toISOString() };
  assertToolIsCoherent(next, policy);
  if (next.type === 'mcp') {
    // A new URL or new headers may reach another server, or the same one with other rights: ask it again.
    const reconnect = next.config?.url !== current.config?.url || JSON.stringify(next.config?.headers ?? {}) !== JSON.stringify(current.config?.headers ?? {}) || !current.mcp;
    const allowListSent = Array.isArray(config?.allowed_tools);
    if (reconnect) next.mcp = await discoverFor(next, discover, allowListSent);
    else if (allowListSent) assertAllowListed(next, current.mcp!);
  }
  return saveTool(db, box, next);
}

/**
 * `POST /api/tools/{id}/refresh`: asks an mcp tool's server for its tools again and stores what it lists
 * now (the allow-list is kept: a name the server dropped is simply no longer offered). A server that cannot
 * be used now is a 4xx and the tools found before stay.
 */
export async function refreshTool(db: Db, box: SecretBox, ws: string, id: string, discover: DiscoverMcp): Promise<Tool> {
  const current = await getTool(db, box, ws, id);
  if (current.type !== 'mcp') {
    throw new BadRequestError(`Only an mcp tool has a server to refresh; this one is ${current.type}.`, [{ field: 'type', message: `the tool is ${current.type}` }], 'not_an_mcp_tool');
  }
  const mcp = await discoverFor(current, discover, false);
  return saveTool(db, box, { ...current, mcp, updatedAt: new Date().toISOString() });
}

/** Deletes the workspace's tool (404 if it has none by that id). */
export const removeTool = (db: Db, ws: string, id: string): Promise<void> => deleteTool(db, ws, id);
