import * as z from 'zod';
import { BodyWorkspaceId, Name, StoredNumber, Timestamp, WorkspaceIdField } from './common.js';
import { McpDiscovery, McpToolName, MAX_MCP_TOOLS } from './mcp-tool.js';
import { findTemplate } from './tool-templates.js';
import { matchesType, ToolParameter, type JsonObject, type JsonValue, type ScalarValue } from './tool-parameter.js';

export { matchesType, PARAMETER_TYPES, ToolParameter, type JsonObject, type JsonValue, type ParameterType, type ScalarValue } from './tool-parameter.js';

export const TOOL_TYPES = ['http', 'integration', 'transfer', 'mcp'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** What a masked header value looks like in responses; sending it back on update keeps the stored value. */
export const MASK = '********';

const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'not a valid HTTP header name');
/** What an HTTP header value can carry (and what Node sends): tab, visible ASCII, space and Latin-1. */
const HeaderValue = z
  .string()
  .max(4_000)
  .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'header values are printable ASCII or Latin-1 text: no CR, LF, NUL or other control characters, no characters beyond U+00FF');
/**
 * Most headers a tool sends, and their summed size: servers refuse header blocks past 8-16 KiB anyway, and
 * the bound keeps a tool (values sealed, a third larger) far inside DynamoDB's 400 KB item limit.
 */
export const MAX_TOOL_HEADERS = 20;
export const MAX_TOOL_HEADER_BYTES = 16 * 1024;
const Headers = z
  .record(HeaderName, HeaderValue)
  .refine((h) => Object.keys(h).length <= MAX_TOOL_HEADERS, `at most ${MAX_TOOL_HEADERS} headers`)
  .refine(
    (h) => Object.entries(h).reduce((n, [k, v]) => n + k.length + v.length, 0) <= MAX_TOOL_HEADER_BYTES,
    `header names and values total at most ${MAX_TOOL_HEADER_BYTES} bytes`,
  );

/** Deepest nesting of a JSON body: far beyond any vendor's request shape, and stops a pathological one. */
const MAX_BODY_DEPTH = 10;
const MAX_BODY_CHARS = 20_000;

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

/**
 * `config.body`: a string (sent as written, placeholders filled) or a JSON object or array, which is what
 * Vapi and Retell users write (`{"order_id": "{order_id}"}`); it is stored and returned as given.
 */
const ToolBody = z
  .union([z.string().max(MAX_BODY_CHARS), z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .superRefine((body, ctx) => {
    if (typeof body === 'string') return;
    if (depthOf(body) > MAX_BODY_DEPTH) ctx.addIssue({ code: 'custom', message: `a JSON body nests at most ${MAX_BODY_DEPTH} levels` });
    else if (JSON.stringify(body).length > MAX_BODY_CHARS) {
      ctx.addIssue({ code: 'custom', message: `a JSON body is at most ${MAX_BODY_CHARS} characters` });
    }
  }) as unknown as z.ZodType<string | JsonObject | JsonValue[]>;

const SettingName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a setting name is a letter or _ then letters, digits or _');

export const ToolConfig = z.strictObject({
  method: z.enum(HTTP_METHODS).optional(),
  url: z.string().trim().min(1).max(2_000).optional(),
  headers: Headers.optional(),
  body: ToolBody.optional(),
  /** An integration tool's account settings (see lib/domain/tool-templates.ts); not secret. */
  settings: z.record(SettingName, z.union([z.string().max(2_000), StoredNumber])).optional(),
  /**
   * An `mcp` tool's allow-list: the names of the server's tools the agent may call. Absent: every tool the
   * server lists (docs/tools.md, "MCP servers").
   */
  allowed_tools: z.array(McpToolName).max(MAX_MCP_TOOLS).optional(),
});
export type ToolConfig = z.infer<typeof ToolConfig>;

const toolFields = {
  name: Name,
  type: z.enum(TOOL_TYPES),
  description: z.string().trim().min(1).max(2_000),
  templateId: z.string().min(1).max(100),
  config: ToolConfig,
  parameters: z.array(ToolParameter).max(30),
};

const createFields = {
  ...toolFields,
  templateId: toolFields.templateId.optional(),
  config: toolFields.config.optional(),
  parameters: toolFields.parameters.default([]),
  workspaceId: BodyWorkspaceId,
};

/** POST /api/tools body, as validated; what each type needs is checked next (lib/domain/tool-coherence.ts). */
export const ToolCreate = z.strictObject(createFields);
export type ToolCreate = z.infer<typeof ToolCreate>;

/**
 * POST /api/tools body as documented: one shape per `type`, stating what the coherence rules require of it,
 * so a generated client types a tool by its type. Built from the same fields as {@link ToolCreate}.
 */
export const ToolCreateByType = z
  .discriminatedUnion('type', [
    z
      .strictObject({ ...createFields, type: z.literal('http'), config: ToolConfig.extend({ method: z.enum(HTTP_METHODS), url: z.string().trim().min(1).max(2_000) }) })
      .meta({ id: 'HttpToolCreate', description: 'Calls your HTTP endpoint: config.method and config.url (placeholders name parameters).' }),
    z
      .strictObject({ ...createFields, type: z.literal('integration'), templateId: toolFields.templateId })
      .meta({ id: 'IntegrationToolCreate', description: 'A ready-made integration: templateId, its config.settings and required headers (GET /api/tool-templates).' }),
    z
      .strictObject({ ...createFields, type: z.literal('transfer'), config: ToolConfig.extend({ url: z.string().trim().min(1).max(2_000).describe('tel:+<E.164 number> or sip:<user>@<host>') }) })
      .meta({ id: 'TransferToolCreate', description: 'Hands the caller over to config.url, a tel: number or sip: URI.' }),
    z
      .strictObject({ ...createFields, type: z.literal('mcp'), config: ToolConfig.pick({ headers: true, allowed_tools: true }).extend({ url: z.string().trim().min(1).max(2_000).describe('The MCP server endpoint (Streamable HTTP, or HTTP+SSE)') }) })
      .meta({ id: 'McpToolCreate', description: 'Connects an MCP server at config.url; the tools it lists are discovered at save (config.allowed_tools picks which the agent may call).' }),
  ])
  .meta({ id: 'ToolCreate' });

/** PUT /api/tools/{id} body: only the fields to change. */
export const ToolUpdate = z
  .strictObject({
    name: toolFields.name.optional(),
    type: toolFields.type.optional(),
    description: toolFields.description.optional(),
    templateId: toolFields.templateId.optional(),
    config: ToolConfig.extend({
      allowed_tools: z.array(McpToolName).max(MAX_MCP_TOOLS).nullable().optional().describe('null: back to every tool the server lists'),
    }).optional(),
    parameters: toolFields.parameters.optional(),
    workspaceId: WorkspaceIdField.optional(),
  })
  .meta({ id: 'ToolUpdate' });
export type ToolUpdate = z.infer<typeof ToolUpdate>;

/** A tool as the domain sees it: header values in the clear (the store encrypts them). */
export interface Tool {
  _id: string;
  name: string;
  type: (typeof TOOL_TYPES)[number];
  description: string;
  workspaceId: string;
  templateId?: string;
  config?: ToolConfig;
  parameters: ToolParameter[];
  /** An `mcp` tool's discovered tools (lib/domain/mcp-tool.ts). */
  mcp?: McpDiscovery;
  createdAt: string;
  updatedAt: string;
}

export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Placeholder names in a URL or body (strings inside a JSON body included). */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  if (value === null || typeof value !== 'object') return [];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap(placeholdersIn);
}

/** What saving a tool is checked against beyond its own fields. */
export interface ToolPolicy {
  /** TOOL_ALLOWED_HOSTS: hosts a tool may name although they are private (local development and tests). */
  readonly allowedHosts: readonly string[];
}

/**
 * The parameters a tool offers the model: its own, or its integration template's. Undefined for an
 * integration tool whose template is unknown.
 */
export function parametersOf(tool: Pick<Tool, 'type' | 'templateId' | 'parameters'>): readonly ToolParameter[] | undefined {
  if (tool.type !== 'integration') return tool.parameters;
  const template = findTemplate(tool.templateId ?? '');
  if (!template) return undefined;
  return template.parameters === 'tool' ? tool.parameters : template.parameters;
}

const maskedConfig = z.object({
  method: z.enum(HTTP_METHODS).optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  settings: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  allowed_tools: z.array(z.string()).optional(),
});
const base = {
  _id: z.string(),
  name: z.string(),
  type: z.enum(TOOL_TYPES),
  description: z.string(),
  workspaceId: z.string(),
  templateId: z.string().optional(),
  createdAt: Timestamp,
};

/** Create response: no `headers`, no `parameters`. */
export const ToolCreated = z
  .object({ ...base, config: maskedConfig.omit({ headers: true }).optional(), mcp: McpDiscovery.optional() })
  .meta({ id: 'ToolCreated' });
/** List item: no `config`, no `parameters`. */
export const ToolListItem = z.object(base).meta({ id: 'ToolListItem' });
/** Get and update response: everything, header values masked. */
export const ToolView = z
  .object({ ...base, config: maskedConfig.optional(), parameters: z.array(ToolParameter), mcp: McpDiscovery.optional(), updatedAt: Timestamp })
  .meta({ id: 'Tool' });

/** The tool with every header value replaced by {@link MASK}. */
export function maskTool(tool: Tool): Tool {
  if (!tool.config?.headers) return tool;
  const headers = Object.fromEntries(Object.keys(tool.config.headers).map((k) => [k, MASK]));
  return { ...tool, config: { ...tool.config, headers } };
}
