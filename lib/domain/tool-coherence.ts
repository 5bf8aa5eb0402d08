import { ValidationError, type ErrorDetail } from './errors.js';
import { normalizePhone } from './phone.js';
import { refuseToolUrl } from './ssrf.js';
import { matchesType, PLACEHOLDER, placeholdersIn, type Tool, type ToolPolicy } from './tool.js';
import { findTemplate, TOOL_TEMPLATES, type ToolTemplate } from './tool-templates.js';

/*
 * The rules checked when a tool is saved, apart from its schema (lib/domain/tool.ts): kept in their own module
 * because they bring the SSRF guard (ipaddr.js) and the phone parser, which the handlers that only read or
 * describe tools (tools/get, docs/openapi) have no use for (docs/benchmarks.md, "Cold start").
 */

/** Checks an absolute http(s) URL with placeholders: shape, SSRF policy, and that placeholders are known. */
function checkUrl(url: string, known: readonly string[], knownWhat: string, policy: ToolPolicy, problems: ErrorDetail[]): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.replace(PLACEHOLDER, 'x'));
  } catch {
    problems.push({ field: 'config.url', message: 'config.url is not an absolute URL' });
  }
  if (parsed && parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    problems.push({ field: 'config.url', message: 'config.url must use http or https' });
  } else if (parsed && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\{/i.test(url)) {
    // A placeholder in the host is only known once filled: the call-time guard judges it then.
    const refused = refuseToolUrl(parsed, policy.allowedHosts);
    if (refused) problems.push({ field: 'config.url', message: `config.url is refused: ${refused}; tools may only call public hosts` });
  }
  for (const name of placeholdersIn(url)) {
    if (!known.includes(name)) problems.push({ field: 'config.url', message: `placeholder {${name}} names no ${knownWhat}` });
  }
}

function checkSettings(template: ToolTemplate, settings: Record<string, string | number> | undefined, problems: ErrorDetail[]): void {
  const given = settings ?? {};
  for (const name of Object.keys(given)) {
    if (!template.settings.some((s) => s.name === name)) {
      const known = template.settings.map((s) => s.name).join(', ') || 'none';
      problems.push({ field: `config.settings.${name}`, message: `the template has no setting "${name}" (settings: ${known})` });
    }
  }
  for (const setting of template.settings) {
    const field = `config.settings.${setting.name}`;
    const value = Object.hasOwn(given, setting.name) ? given[setting.name] : undefined;
    if (value === undefined) problems.push({ field, message: `the template needs setting ${setting.name}: ${setting.description}` });
    else if (setting.type === 'integer' && !matchesType(value, 'integer')) {
      problems.push({ field, message: `${setting.name} must be an integer, for example ${setting.example}` });
    } else if (setting.type === 'string' && (typeof value !== 'string' || !new RegExp(setting.pattern ?? '^.{1,2000}$', 's').test(value))) {
      problems.push({ field, message: `${setting.name} must look like ${JSON.stringify(setting.example)}` });
    }
  }
}

/**
 * Cross-field rules a schema cannot say: what each tool type needs, that URL and body placeholders name
 * parameters, that parameter names are unique, and that the URL passes the SSRF policy as far as the URL
 * alone can tell (literal private addresses, `localhost`, `*.internal` ...; names that resolve to private
 * addresses are refused at call time). Throws a ValidationError listing every problem.
 */
export function assertToolIsCoherent(
  tool: Pick<Tool, 'type' | 'templateId' | 'config' | 'parameters'>,
  policy: ToolPolicy = { allowedHosts: [] },
): void {
  const problems: ErrorDetail[] = [];
  const names = tool.parameters.map((p) => p.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) problems.push({ field: 'parameters', message: `parameter "${dup}" is declared twice` });
  const url = tool.config?.url;

  if (tool.type !== 'integration' && tool.config?.settings !== undefined) {
    problems.push({ field: 'config.settings', message: 'config.settings belongs to integration tools only' });
  }
  if (tool.type === 'http') {
    if (!url) problems.push({ field: 'config.url', message: 'an http tool needs config.url' });
    if (!tool.config?.method) problems.push({ field: 'config.method', message: 'an http tool needs config.method' });
    if (url) checkUrl(url, names, 'parameter', policy, problems);
    for (const name of placeholdersIn(tool.config?.body)) {
      if (!names.includes(name)) problems.push({ field: 'config.body', message: `placeholder {${name}} names no parameter` });
    }
  }
  if (tool.type !== 'mcp' && tool.config?.allowed_tools !== undefined) {
    problems.push({ field: 'config.allowed_tools', message: 'config.allowed_tools belongs to mcp tools only' });
  }
  if (tool.type === 'mcp') {
    if (!url) problems.push({ field: 'config.url', message: 'an mcp tool needs config.url, the MCP server endpoint' });
    else checkUrl(url, [], 'parameter (an MCP server URL takes no placeholders)', policy, problems);
    // The server defines its tools' requests and arguments (docs/tools.md, "MCP servers").
    for (const key of ['method', 'body'] as const) {
      if (tool.config?.[key] !== undefined) problems.push({ field: `config.${key}`, message: `an mcp tool has no config.${key}: the server defines its tools` });
    }
    if (tool.parameters.length > 0) problems.push({ field: 'parameters', message: "an mcp tool's parameters are its server's input schemas" });
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
      checkSettings(template, tool.config?.settings, problems);
      // The template owns the request shape; a tool that sent its own would silently not get it.
      for (const key of ['method', 'body'] as const) {
        if (tool.config?.[key] !== undefined) problems.push({ field: `config.${key}`, message: `the template sets config.${key}` });
      }
      if (template.parameters !== 'tool' && tool.parameters.length > 0) {
        problems.push({ field: 'parameters', message: 'the template defines the parameters' });
      }
      if (template.url === undefined) {
        if (!url) problems.push({ field: 'config.url', message: `template ${template.templateId} needs config.url` });
        else checkUrl(url, names, 'parameter', policy, problems);
      } else if (url !== undefined) {
        problems.push({ field: 'config.url', message: 'the template sets config.url' });
      } else if (problems.length === 0) {
        // Settings are pattern-checked, so this cannot fail today; it keeps a future template honest.
        const filled = template.url.replace(PLACEHOLDER, (m, name: string) => {
          const value = tool.config?.settings?.[name];
          return value === undefined ? 'x' : encodeURIComponent(String(value));
        });
        checkUrl(filled, [], 'setting', policy, problems);
      }
    }
  }
  if (tool.type === 'transfer') {
    // A PBX or contact centre is reached by SIP URI; a phone by number.
    const target = url?.startsWith('tel:') ? normalizePhone(url.slice(4)) : url && /^sips?:[^\s<>"'&@]+@[^\s<>"'&]+$/.test(url) ? url : undefined;
    if (!target) {
      problems.push({ field: 'config.url', message: 'a transfer tool needs config.url "tel:+<E.164 number>" or "sip:<user>@<host>"' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
}
