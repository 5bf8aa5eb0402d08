import { offeredMcpTools } from '../../../lib/domain/mcp-tool.js';
import { parametersOf, type JsonValue, type Tool, type ToolParameter } from '../../../lib/domain/tool.js';
import { findTemplate } from '../../../lib/domain/tool-templates.js';
import { handoffToolName, type Handoff } from '../../../lib/domain/handoff.js';
import type { LlmToolSpec } from '../../../lib/vendors/llm/port.js';
import { SEARCH_KNOWLEDGE_TOOL } from '../conversation/knowledge.js';
import { coerceArguments, parseArguments, runHttpTool, type HttpToolOptions, type HttpToolSpec, type ToolOutcome } from './http.js';

/**
 * The tools offered to the model during a call: the workspace tools the agent is given (its `tool_ids`, or
 * every tool of its workspace when it names none: lib/domain/agent.ts `toolsOfAgent`), plus the built-ins
 * (`end_call`, `send_dtmf`, and `opt_out` on phone calls), which no agent setting removes.
 */
export const END_CALL_TOOL = 'end_call';
/** Built in: keypad tones into the call, to get through an IVR (docs/telephony.md, DTMF). */
export const SEND_DTMF_TOOL = 'send_dtmf';
/** Built in on phone calls: the callee asks never to be called again (docs/campaigns.md, "Do not call"). */
export const OPT_OUT_TOOL = 'opt_out';

/** What calling a tool does. */
export type ToolAction =
  | { readonly kind: 'http'; readonly tool: Tool }
  /** One tool of an `mcp` tool's server, by the name the server gave it. */
  | { readonly kind: 'mcp'; readonly tool: Tool; readonly mcpName: string }
  | { readonly kind: 'transfer'; readonly tool: Tool; readonly to: string; readonly mode: 'cold' | 'warm' }
  | { readonly kind: 'send_dtmf' }
  | { readonly kind: 'opt_out' }
  /** Another agent of the workspace takes the conversation over (docs/handoffs.md). */
  | { readonly kind: 'handoff'; readonly handoff: Handoff; readonly destinationName: string }
  | { readonly kind: 'end_call' };

/** The actions that reach a workspace's own backend (HTTP or MCP): run with the same budgets and idempotency. */
export type RemoteAction = Extract<ToolAction, { kind: 'http' | 'mcp' }>;
/** The actions the session itself carries out. */
export type BuiltInAction = Exclude<ToolAction, RemoteAction>;

/** How the agent's transfer tools hand the caller over (docs/telephony.md, Transfer). */
export interface CallToolOptions {
  readonly transferMode?: 'cold' | 'warm';
  /** Offer `opt_out` (a phone call, whose number can join the do-not-call list). */
  readonly optOut?: boolean;
  /** The agent's handoffs, each with its destination's name as the call started (docs/handoffs.md). */
  readonly handoffs?: readonly HandoffOffer[];
}

/** One handoff the model is offered: the agent's setting and the name the tool is called after. */
export interface HandoffOffer {
  readonly handoff: Handoff;
  readonly destinationName: string;
}

/** A warm transfer's summary comes from the model, which knows the call best. */
const SUMMARY_PARAMETER: ToolParameter = {
  name: 'summary',
  type: 'string',
  required: true,
  description: 'One or two sentences for the person taking the call: who is calling and what they need.',
};

export interface CallTools {
  readonly specs: readonly LlmToolSpec[];
  readonly byName: ReadonlyMap<string, ToolAction>;
}

/** Vendors accept `^[a-zA-Z0-9_-]{1,64}$`; tool names are display names, so they are folded into that. */
function functionName(name: string, taken: Set<string>): string {
  const base = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 56) || 'tool';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** JSON Schema of a tool's parameters as every vendor adapter passes it on (lib/vendors/llm/*). */
const schema = (params: readonly ToolParameter[]) => ({
  type: 'object',
  properties: Object.fromEntries(
    params.map((p) => [p.name, { type: p.type ?? 'string', description: p.description, ...(p.enum ? { enum: p.enum } : {}) }]),
  ),
  required: params.filter((p) => p.required).map((p) => p.name),
  additionalProperties: false,
});

/**
 * Most functions one request offers: OpenAI's Chat Completions refuses more than 128 tools. Workspace tools
 * are at most 30 parameters each but unbounded in number; an mcp tool brings up to 128 functions of its own,
 * so two servers could pass it. Server tools past it (after room for the built-ins) are not offered.
 */
export const MAX_OFFERED_FUNCTIONS = 128;
const BUILT_IN_ROOM = 3;

/** A handoff tool's parameters: the variables to gather, and the summary when that is the context that travels. */
const handoffParameters = (h: Handoff): ToolParameter[] => [
  ...(h.variables ?? []).map((v) => ({ name: v.name, type: v.type ?? 'string', required: v.required !== false, description: v.description })),
  ...(h.context === 'summary' ? [{ name: 'summary', type: 'string' as const, required: true, description: 'A few sentences for the next agent: who this is and what they need so far.' }] : []),
];

/** Builds the model-facing tool list and the name -> action map for one call. */
export function buildCallTools(tools: readonly Tool[], options: CallToolOptions = {}): CallTools {
  // search_knowledge is offered by the turn loop to agents with knowledge bases (conversation/knowledge.ts).
  const taken = new Set<string>([END_CALL_TOOL, SEND_DTMF_TOOL, OPT_OUT_TOOL, SEARCH_KNOWLEDGE_TOOL]);
  const mode = options.transferMode ?? 'cold';
  const specs: LlmToolSpec[] = [];
  const byName = new Map<string, ToolAction>();
  for (const tool of tools) {
    const name = functionName(tool.name, taken);
    if (tool.type === 'mcp') {
      // Each server tool the agent may call is a function of its own, named `<tool>__<server tool>` so two
      // servers (or an HTTP tool) with a tool of the same name never collide; the server's schema is offered as is.
      for (const offered of offeredMcpTools(tool.mcp?.tools ?? [], tool.config?.allowed_tools)) {
        if (specs.length >= MAX_OFFERED_FUNCTIONS - BUILT_IN_ROOM) break;
        const fn = functionName(`${tool.name}__${offered.name}`, taken);
        specs.push({ name: fn, description: offered.description || tool.description, parameters: offered.inputSchema });
        byName.set(fn, { kind: 'mcp', tool, mcpName: offered.name });
      }
      continue;
    }
    if (tool.type === 'transfer') {
      const to = tool.config?.url?.replace(/^tel:/, '') ?? '';
      specs.push({ name, description: tool.description, parameters: schema(mode === 'warm' ? [SUMMARY_PARAMETER] : []) });
      byName.set(name, { kind: 'transfer', tool, to, mode });
      continue;
    }
    const params = parametersOf(tool) ?? [];
    specs.push({ name, description: tool.description, parameters: schema(params) });
    byName.set(name, { kind: 'http', tool });
  }
  specs.push({
    name: SEND_DTMF_TOOL,
    description:
      'Press keys on the phone keypad, for example to choose an option in an automated phone menu. Only when a ' +
      'recorded menu asks for keys; never to answer a person.',
    parameters: schema([{ name: 'digits', type: 'string', required: true, description: 'Keys to press in order: 0-9, * and #; w waits half a second.' }]),
  });
  byName.set(SEND_DTMF_TOOL, { kind: 'send_dtmf' });
  for (const offer of options.handoffs ?? []) {
    const name = handoffToolName(offer.destinationName, taken);
    taken.add(name);
    specs.push({ name, description: `Hand the conversation over to ${offer.destinationName}: ${offer.handoff.description}`, parameters: schema(handoffParameters(offer.handoff)) });
    byName.set(name, { kind: 'handoff', handoff: offer.handoff, destinationName: offer.destinationName });
  }
  if (options.optOut) {
    specs.push({
      name: OPT_OUT_TOOL,
      description:
        'Put this caller on the do-not-call list, when they clearly ask not to be called again (for example "stop ' +
        'calling me", "take me off your list"). Confirm to them that they will not be called again, then end the call.',
      parameters: schema([]),
    });
    byName.set(OPT_OUT_TOOL, { kind: 'opt_out' });
  }
  specs.push({
    name: END_CALL_TOOL,
    description: 'End the call politely when the conversation is over or the caller asks to hang up. Say goodbye first.',
    parameters: schema([]),
  });
  byName.set(END_CALL_TOOL, { kind: 'end_call' });
  return { specs, byName };
}

/** `fixed` without the headers `own` also names, in any case: the tool's own value wins, and is sent once. */
const withoutNamesIn = (fixed: Readonly<Record<string, string>>, own: Readonly<Record<string, string>>) => {
  const names = new Set(Object.keys(own).map((h) => h.toLowerCase()));
  return Object.fromEntries(Object.entries(fixed).filter(([h]) => !names.has(h.toLowerCase())));
};

/** The HTTP call an `http` or `integration` tool makes, from its (decrypted) stored form. */
export function httpSpecOf(tool: Tool): HttpToolSpec | undefined {
  const headers = tool.config?.headers ?? {};
  if (tool.type === 'integration') {
    const template = findTemplate(tool.templateId ?? '');
    const url = template?.url ?? tool.config?.url;
    if (!template || !url) return undefined;
    // The generic webhook sends one field per declared parameter, each keeping its type.
    const body: JsonValue | undefined =
      template.body ?? (template.parameters === 'tool' ? Object.fromEntries(tool.parameters.map((p) => [p.name, `{${p.name}}`])) : undefined);
    return {
      method: template.method,
      url,
      headers: { ...withoutNamesIn(template.fixedHeaders ?? {}, headers), ...headers },
      body,
      bodyEncoding: template.contentType === 'application/x-www-form-urlencoded' ? 'form' : 'json',
      fixed: tool.config?.settings ?? {},
    };
  }
  if (!tool.config?.url || !tool.config.method) return undefined;
  return { method: tool.config.method, url: tool.config.url, headers, body: tool.config.body };
}

/**
 * Runs an http or integration tool. `loadTool` reads the tool again with its header values decrypted, so
 * secrets are opened only when a call actually uses them.
 */
export async function runHttpAction(
  action: Extract<ToolAction, { kind: 'http' }>,
  argumentsJson: string,
  loadTool: (id: string) => Promise<Tool>,
  options: Partial<HttpToolOptions>,
): Promise<ToolOutcome> {
  let tool: Tool;
  try {
    tool = await loadTool(action.tool._id);
  } catch {
    return { ok: false, content: JSON.stringify({ error: 'the tool no longer exists' }) };
  }
  const spec = httpSpecOf(tool);
  const params = parametersOf(tool);
  if (!spec || !params) return { ok: false, content: JSON.stringify({ error: 'the tool is not configured' }) };
  const checked = coerceArguments(parseArguments(argumentsJson), params);
  if (!checked.ok) {
    return { ok: false, content: JSON.stringify({ error: 'invalid arguments; the request was not sent', problems: checked.problems }) };
  }
  return runHttpTool(spec, checked.args, options);
}
