import * as z from 'zod';
import { BadRequestError } from './errors.js';

/*
 * An `mcp` tool names an MCP server (docs/tools.md, "MCP servers"); the tools the server lists are discovered
 * when the tool is saved and on `POST /api/tools/{id}/refresh`, checked against the limits below and kept on
 * the tool. Nothing here talks to a server: lib/outbound/mcp.ts does, through the official SDK.
 */

/** How we reached the server: the MCP Streamable HTTP transport, or the older HTTP+SSE one it replaced. */
export const MCP_TRANSPORTS = ['streamable_http', 'sse'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * Most tools one server may list. OpenAI's Chat Completions takes at most 128 tools per request, so a
 * server listing more could never be offered whole; a bigger server is refused at save, not cut silently.
 */
export const MAX_MCP_TOOLS = 128;
/** Longest tool name the MCP specification allows (2025-06-18, "Tool names": 1 to 128 characters). */
export const MAX_MCP_TOOL_NAME = 128;
/**
 * Largest input schema of one tool, as JSON text. Real tools' schemas are well under 4 KB; the model reads
 * every offered schema on every turn, so a bigger one costs latency and tokens on each reply.
 */
export const MAX_MCP_SCHEMA_CHARS = 16_000;
/** All of a server's tools together, as JSON: keeps the tool record far inside DynamoDB's 400 KB item limit. */
export const MAX_MCP_TOOLS_CHARS = 200_000;
/** A tool description is cut here (servers write long ones; the model needs the first paragraph). */
export const MAX_MCP_DESCRIPTION = 2_000;

/** A name as MCP tools carry it: printable, no control characters. */
export const McpToolName = z
  .string()
  .min(1)
  .max(MAX_MCP_TOOL_NAME)
  .regex(/^[^\x00-\x1f\x7f]+$/, 'a tool name has no control characters');

/** One tool the server listed, as we keep and show it. */
export const McpToolInfo = z
  .object({
    name: z.string(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'A tool the MCP server listed: its name, description and JSON Schema of its arguments.' });
export type McpToolInfo = z.infer<typeof McpToolInfo>;

/** What discovery found: read-only, shown by `GET /api/tools/{id}`. */
export const McpDiscovery = z
  .object({
    transport: z.enum(MCP_TRANSPORTS),
    tools: z.array(McpToolInfo),
    refreshedAt: z.string(),
  })
  .meta({ description: 'The tools the MCP server listed at the last save or refresh (mcp tools only).' });
export type McpDiscovery = z.infer<typeof McpDiscovery>;

/** A tool as the server's `tools/list` result carries it (only the fields we read). */
export interface ListedMcpTool {
  readonly name: unknown;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
}

/**
 * Checks a server's listing against the limits and keeps what we use of each tool. Throws a 400 (nothing is
 * stored) naming the first problem: too many tools, a bad or repeated name, a schema that is not an object
 * schema or is too large.
 */
export function checkListedTools(listed: readonly ListedMcpTool[]): McpToolInfo[] {
  if (listed.length > MAX_MCP_TOOLS) {
    throw new BadRequestError(`The MCP server lists more than ${MAX_MCP_TOOLS} tools; at most ${MAX_MCP_TOOLS} can be offered to a model.`, [{ field: 'config.url', message: `more than ${MAX_MCP_TOOLS} tools` }], 'mcp_too_many_tools');
  }
  const seen = new Set<string>();
  const tools = listed.map((tool, i): McpToolInfo => {
    const name = McpToolName.safeParse(tool.name);
    if (!name.success || seen.has(name.data)) {
      throw new BadRequestError('The MCP server listed a tool without a valid, unique name.', [{ field: 'config.url', message: `tool ${i}: ${name.success ? `"${name.data}" is listed twice` : 'name missing, too long or with control characters'}` }], 'mcp_server_invalid');
    }
    seen.add(name.data);
    const schema = tool.inputSchema;
    if (!schema || typeof schema !== 'object' || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') {
      throw new BadRequestError(`MCP tool "${name.data}" has no object input schema.`, [{ field: 'config.url', message: `${name.data}: inputSchema must be a JSON Schema of type "object"` }], 'mcp_server_invalid');
    }
    const size = JSON.stringify(schema).length;
    if (size > MAX_MCP_SCHEMA_CHARS) {
      throw new BadRequestError(`MCP tool "${name.data}" has an input schema of ${size} characters; the limit is ${MAX_MCP_SCHEMA_CHARS}.`, [{ field: 'config.url', message: `${name.data}: input schema over ${MAX_MCP_SCHEMA_CHARS} characters` }], 'mcp_schema_too_large');
    }
    const description = typeof tool.description === 'string' ? tool.description.slice(0, MAX_MCP_DESCRIPTION) : '';
    return { name: name.data, description, inputSchema: schema as Record<string, unknown> };
  });
  const total = JSON.stringify(tools).length;
  if (total > MAX_MCP_TOOLS_CHARS) {
    throw new BadRequestError(`The MCP server's tools take ${total} characters together; the limit is ${MAX_MCP_TOOLS_CHARS}.`, [{ field: 'config.url', message: `tools over ${MAX_MCP_TOOLS_CHARS} characters together` }], 'mcp_schema_too_large');
  }
  return tools;
}

/** Names in `allowed` the server does not list (a 400 at save: an allow-list entry that would do nothing). */
export function unknownAllowedTools(allowed: readonly string[] | undefined, discovered: readonly McpToolInfo[]): string[] {
  const names = new Set(discovered.map((t) => t.name));
  return (allowed ?? []).filter((n) => !names.has(n));
}

/**
 * The discovered tools the agent may call: those `allowed_tools` names, or every one when it is absent. A
 * name the server no longer lists after a refresh is simply not offered.
 */
export function offeredMcpTools(discovered: readonly McpToolInfo[], allowed: readonly string[] | undefined): McpToolInfo[] {
  if (allowed === undefined) return [...discovered];
  const wanted = new Set(allowed);
  return discovered.filter((t) => wanted.has(t.name));
}
