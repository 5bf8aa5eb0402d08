/**
 * `{{variables}}` in prompts, read as the platform fills them (lib/domain/template.ts, docs/call-data.md): a
 * contact's `contactName`, `phoneNumber` and every key of its `externalFields`, a call's own `variables`, and
 * the built-ins; exact and case-sensitive. `{{name|default}}` has a default, so it is always filled.
 */
export const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*(\|[^{}]*)?\}\}/g;

/**
 * Always known: every contact has the first two, and the platform sets the rest on every call (a copy of
 * lib/domain/template.ts's list, which test/unit/dashboard-helpers.test.ts checks, so the page needs no zod).
 */
export const BUILT_IN_VARIABLES = ['contactName', 'phoneNumber', 'current_date', 'current_time', 'current_datetime', 'timezone', 'caller_number', 'called_number', 'call_id', 'direction'] as const;

export interface Segment {
  readonly text: string;
  /** Set for a placeholder: its name and whether the workspace's contacts have that field. */
  readonly variable?: { readonly name: string; readonly known: boolean };
}

/** The text cut into plain runs and placeholders, for the editor's highlight layer. */
export function segments(text: string, known: ReadonlySet<string>): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(VARIABLE)) {
    if (match.index > last) out.push({ text: text.slice(last, match.index) });
    out.push({ text: match[0], variable: { name: match[1]!, known: match[2] !== undefined || known.has(match[1]!) } });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** The distinct placeholder names the text needs filled (used at least once without a default), in order of first use. */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].filter((m) => m[2] === undefined).map((m) => m[1]!))];
}
