import type { Agent } from './agent.js';
import type { Tool } from './tool.js';
import { fillTemplate, requiredVariables } from './template.js';

/**
 * Where a call's `{{variables}}` go (docs/calls.md, "Variables"): the agent's system prompt, first message,
 * voicemail message and analysis prompts, and its tools' URLs, header values and bodies.
 */

type TemplatedAgent = Pick<Agent, 'system_prompt' | 'first_message' | 'voicemail_message' | 'analysis'>;

const analysisTexts = (a: TemplatedAgent['analysis']) => [a?.summaryPrompt, a?.successEvaluation?.rubric, a?.structuredData?.prompt];

/** A JSON body's string leaves (where a template may sit). */
function jsonStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) jsonStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) jsonStrings(v, out);
  return out;
}

/**
 * The names a call of this agent must supply (no default given), from every text above. Tool header values
 * are filled too but not checked here: they are sealed at rest, and a call start reads no secrets.
 */
export function agentRequiredVariables(agent: TemplatedAgent, tools: readonly Pick<Tool, 'config'>[] = []): string[] {
  const toolTexts = tools.flatMap((t) => [t.config?.url, ...(typeof t.config?.body === 'string' ? [t.config.body] : jsonStrings(t.config?.body))]);
  return requiredVariables(agent.system_prompt, agent.first_message, agent.voicemail_message, ...analysisTexts(agent.analysis), ...toolTexts);
}

/** The agent with its texts filled for one call. */
export function fillAgent<A extends TemplatedAgent>(agent: A, vars: Readonly<Record<string, string>>): A {
  // Agents built by hand (tests, older records) may lack a text: it stays as it is.
  const fill = <T>(t: T): T => (typeof t === 'string' ? (fillTemplate(t, vars) as T) : t);
  const a = agent.analysis;
  return {
    ...agent,
    system_prompt: fill(agent.system_prompt),
    first_message: fill(agent.first_message),
    ...(agent.voicemail_message !== undefined ? { voicemail_message: fill(agent.voicemail_message) } : {}),
    ...(a
      ? {
          analysis: {
            ...a,
            ...(a.summaryPrompt !== undefined ? { summaryPrompt: fill(a.summaryPrompt) } : {}),
            ...(a.successEvaluation ? { successEvaluation: { ...a.successEvaluation, rubric: fill(a.successEvaluation.rubric) } } : {}),
            ...(a.structuredData?.prompt !== undefined ? { structuredData: { ...a.structuredData, prompt: fill(a.structuredData.prompt) } } : {}),
          },
        }
      : {}),
  };
}

function fillJsonStrings(value: unknown, fill: (t: string) => string): unknown {
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((v) => fillJsonStrings(v, fill));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillJsonStrings(v, fill)]));
  return value;
}

/**
 * The tool with `{{variables}}` filled, before the model's `{param}` arguments are: in the URL each value is
 * URL-encoded, in a JSON string body JSON-escaped (a value cannot break out of its quotes), in a JSON body's
 * strings and in header values as is.
 */
export function fillTool<T extends Pick<Tool, 'config'>>(tool: T, vars: Readonly<Record<string, string>>): T {
  const c = tool.config;
  if (!c) return tool;
  const plain = (t: string) => fillTemplate(t, vars);
  const body =
    typeof c.body === 'string'
      ? fillTemplate(c.body, vars, /^\s*[[{]/.test(c.body) ? (v) => JSON.stringify(v).slice(1, -1) : undefined)
      : c.body === undefined
        ? undefined
        : (fillJsonStrings(c.body, plain) as typeof c.body);
  return {
    ...tool,
    config: {
      ...c,
      ...(c.url !== undefined ? { url: fillTemplate(c.url, vars, encodeURIComponent) } : {}),
      ...(c.headers ? { headers: Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, plain(v)])) } : {}),
      ...(body !== undefined ? { body } : {}),
    },
  };
}
