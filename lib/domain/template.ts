import * as z from 'zod';
import type { Contact } from './contact.js';

/**
 * `{{variable}}` templates (docs/calls.md, "Variables"): the system prompt, first message, voicemail message,
 * analysis prompts and tool URLs, headers and bodies name them; a call fills them from, lowest first, the
 * contact's fields (`{{contactName}}`, `{{phoneNumber}}`, every `externalFields` key), the call's own
 * `variables` (campaign defaults under the contact's columns), then the built-ins. `{{name|default}}` says
 * what to use when nothing supplies `name`. Names are exact and case-sensitive.
 */

/** `{{ name }}` or `{{ name | default text }}`; the default is trimmed and may be empty. */
const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*(?:\|([^{}]*))?\}\}/g;

/** A value given for a call: what Vapi's `variableValues` and Retell's dynamic variables take. */
export type VariableValue = string | number | boolean;

/** A variable name: a letter or `_`, then letters, digits, `_`, `.` or `-`; 64 characters at most. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** At most 100 variables per call, each string at most 2,000 characters, 16 KB of JSON in all: a prompt's worth. */
export const MAX_VARIABLES = 100;
export const MAX_VARIABLE_CHARS = 2_000;
export const MAX_VARIABLES_BYTES = 16 * 1024;

/**
 * Filled by the platform on every call; a request may not set them (400). The date and time are read in
 * the contact's `timeZone` field (agents have no zone of their own), else UTC.
 */
export const BUILT_IN_VARIABLES = ['current_date', 'current_time', 'current_datetime', 'timezone', 'caller_number', 'called_number', 'call_id', 'direction'] as const;
const BUILT_IN = new Set<string>(BUILT_IN_VARIABLES);

/** `variables` on a call request: an object of string, number or boolean values (bounds above). */
export const CallVariables = z
  .record(z.string().regex(VARIABLE_NAME, 'a variable name is a letter or _ then letters, digits, _, . or -; 64 characters at most'), z.union([z.string().max(MAX_VARIABLE_CHARS), z.number().finite(), z.boolean()]))
  .superRefine((vars, ctx) => {
    const names = Object.keys(vars);
    if (names.length > MAX_VARIABLES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_VARIABLES} variables` });
    if (Buffer.byteLength(JSON.stringify(vars)) > MAX_VARIABLES_BYTES) ctx.addIssue({ code: 'custom', message: `at most ${MAX_VARIABLES_BYTES} bytes of JSON` });
    for (const name of names.filter((n) => BUILT_IN.has(n))) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is a built-in variable; the platform sets it` });
  })
  .describe("Values for {{name}} in the agent's prompt, first message, voicemail message, analysis prompts and tools, for this call (docs/calls.md)");
export type CallVariables = z.infer<typeof CallVariables>;

/** The contact's variables: `{{contactName}}`, `{{phoneNumber}}` and every `externalFields` key. */
export function contactVariables(contact: Pick<Contact, 'contactName' | 'phoneNumber' | 'externalFields'> | undefined): Record<string, string> {
  if (!contact) return {};
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(contact.externalFields ?? {})) vars[k] = String(v);
  vars.contactName = contact.contactName;
  vars.phoneNumber = contact.phoneNumber;
  return vars;
}

/** What the built-ins are read from. */
export interface CallFacts {
  readonly callId: string;
  readonly direction: 'inbound' | 'outbound' | 'web' | 'chat';
  /** Who called: the other party of an inbound call, our number of an outbound one (E.164 or empty). */
  readonly callerNumber: string;
  readonly calledNumber: string;
  readonly timeZone?: string;
  readonly nowMs: number;
}

const zoneOrUtc = (zone: string | undefined): string => {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
};

/** The built-in variables: `current_date` (2026-12-02), `current_time` (14:05), `current_datetime`, `timezone`, the numbers, the call id, the direction. */
export function builtInVariables(facts: CallFacts): Record<(typeof BUILT_IN_VARIABLES)[number], string> {
  const timeZone = zoneOrUtc(facts.timeZone);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', weekday: 'long' })
      .formatToParts(new Date(facts.nowMs))
      .map((p) => [p.type, p.value]),
  );
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}`;
  return {
    current_date: date,
    current_time: time,
    current_datetime: `${parts.weekday} ${date} ${time} ${timeZone}`,
    timezone: timeZone,
    caller_number: facts.callerNumber,
    called_number: facts.calledNumber,
    call_id: facts.callId,
    direction: facts.direction,
  };
}

/** The contact's own zone (an `externalFields.timeZone` or `timezone`), for the built-in date and time. */
export const contactTimeZone = (contact: Pick<Contact, 'externalFields'> | undefined): string | undefined => {
  const own = contact?.externalFields?.timeZone ?? contact?.externalFields?.timezone;
  return typeof own === 'string' ? own : undefined;
};

/** A call's variables, in the documented order: the contact's, then the call's own, then the built-ins. */
export function callVariables(contact: Parameters<typeof contactVariables>[0], given: Readonly<Record<string, VariableValue>> | undefined, facts: CallFacts): Record<string, string> {
  const vars = contactVariables(contact);
  for (const [k, v] of Object.entries(given ?? {})) vars[k] = String(v);
  return { ...vars, ...builtInVariables(facts) };
}

/**
 * Fills `{{name}}` from `vars`. A blank or absent value takes the template's default; with none it becomes
 * empty (a call start refuses that case first, see {@link requiredVariables}: only an inbound call, which
 * no request starts, can still get a gap, which beats a model reading `{{name}}` aloud).
 */
export function fillTemplate(template: string, vars: Readonly<Record<string, string>>, encode: (value: string) => string = (v) => v): string {
  return template.replace(VARIABLE, (_m, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(vars, name) ? vars[name]! : '';
    return encode(value.trim() === '' && fallback !== undefined ? fallback.trim() : value);
  });
}

/** Every `{{name}}` the texts name with no default, once each: those a call must supply. */
export function requiredVariables(...texts: readonly (string | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const m of (text ?? '').matchAll(VARIABLE)) if (m[2] === undefined) names.add(m[1]!);
  return [...names];
}

/** The required names with no value (blank values count as missing: the agent would say a gap); built-ins are always there. */
export function missingVariables(names: readonly string[], vars: Readonly<Record<string, string>>): string[] {
  return names.filter((n) => !BUILT_IN.has(n) && (!Object.hasOwn(vars, n) || vars[n]!.trim() === ''));
}
