import * as z from 'zod';
import { Name, Timestamp, WorkspaceIdField } from './common.js';
import { ValidationError, type ErrorDetail } from './errors.js';
import { normalizePhone } from './phone.js';
import { findTemplate, TOOL_TEMPLATES } from './tool-templates.js';

export const TOOL_TYPES = ['http', 'integration', 'transfer'] as const;
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

export const ToolParameter = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a parameter name is a letter or _ then letters, digits or _'),
  description: z.string().trim().min(1).max(1_000),
  required: z.boolean(),
});
export type ToolParameter = z.infer<typeof ToolParameter>;

export const ToolConfig = z.strictObject({
  method: z.enum(HTTP_METHODS).optional(),
  url: z.string().trim().min(1).max(2_000).optional(),
  headers: Headers.optional(),
  body: z.string().max(20_000).optional(),
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

/** POST /api/tools body. */
export const ToolCreate = z
  .strictObject({
    ...toolFields,
    templateId: toolFields.templateId.optional(),
    config: toolFields.config.optional(),
    parameters: toolFields.parameters.default([]),
    workspaceId: WorkspaceIdField,
  })
  .meta({ id: 'ToolCreate' });
export type ToolCreate = z.infer<typeof ToolCreate>;

/** PUT /api/tools/{id} body: only the fields to change. */
export const ToolUpdate = z
  .strictObject({
    name: toolFields.name.optional(),
    type: toolFields.type.optional(),
    description: toolFields.description.optional(),
    templateId: toolFields.templateId.optional(),
    config: toolFields.config.optional(),
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
  createdAt: string;
  updatedAt: string;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Cross-field rules a schema cannot say: what each tool type needs, that URL placeholders name parameters,
 * and that parameter names are unique. Throws a ValidationError listing every problem.
 */
export function assertToolIsCoherent(tool: Pick<Tool, 'type' | 'templateId' | 'config' | 'parameters'>): void {
  const problems: ErrorDetail[] = [];
  const names = tool.parameters.map((p) => p.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) problems.push({ field: 'parameters', message: `parameter "${dup}" is declared twice` });
  const url = tool.config?.url;

  if (tool.type === 'http') {
    if (!url) problems.push({ field: 'config.url', message: 'an http tool needs config.url' });
    if (!tool.config?.method) problems.push({ field: 'config.method', message: 'an http tool needs config.method' });
    if (url) {
      const probe = url.replace(PLACEHOLDER, 'x');
      let parsed: URL | undefined;
      try {
        parsed = new URL(probe);
      } catch {
        problems.push({ field: 'config.url', message: 'config.url is not an absolute URL' });
      }
      if (parsed && parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        problems.push({ field: 'config.url', message: 'config.url must use http or https' });
      }
      for (const [, name] of url.matchAll(PLACEHOLDER)) {
        if (!names.includes(name!)) {
          problems.push({ field: 'config.url', message: `placeholder {${name}} names no parameter` });
        }
      }
    }
  }
  if (tool.templateId !== undefined && tool.type !== 'integration') {
    problems.push({ field: 'templateId', message: 'templateId belongs to integration tools only' });
  }
  if (tool.type === 'integration') {
    const template = tool.templateId ? findTemplate(tool.templateId) : undefined;
    if (!tool.templateId) problems.push({ field: 'templateId', message: 'an integration tool needs templateId' });
    else if (!template) {
      problems.push({
        field: 'templateId',
        message: `unknown template; known: ${TOOL_TEMPLATES.map((t) => t.templateId).join(', ')}`,
      });
    } else {
      for (const header of template.requiredHeaders) {
        const has = Object.keys(tool.config?.headers ?? {}).some((h) => h.toLowerCase() === header.toLowerCase());
        if (!has) problems.push({ field: `config.headers.${header}`, message: `template needs header ${header}` });
      }
    }
  }
  if (tool.type === 'transfer') {
    const target = url?.startsWith('tel:') ? normalizePhone(url.slice(4)) : undefined;
    if (!target) {
      problems.push({ field: 'config.url', message: 'a transfer tool needs config.url "tel:+<E.164 number>"' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
}

const maskedConfig = z.object({
  method: z.enum(HTTP_METHODS).optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
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
  .object({ ...base, config: maskedConfig.omit({ headers: true }).optional() })
  .meta({ id: 'ToolCreated' });
/** List item: no `config`, no `parameters`. */
export const ToolListItem = z.object(base).meta({ id: 'ToolListItem' });
/** Get and update response: everything, header values masked. */
export const ToolView = z
  .object({ ...base, config: maskedConfig.optional(), parameters: z.array(ToolParameter), updatedAt: Timestamp })
  .meta({ id: 'Tool' });

/** The tool with every header value replaced by {@link MASK}. */
export function maskTool(tool: Tool): Tool {
  if (!tool.config?.headers) return tool;
  const headers = Object.fromEntries(Object.keys(tool.config.headers).map((k) => [k, MASK]));
  return { ...tool, config: { ...tool.config, headers } };
}
