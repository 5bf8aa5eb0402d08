/**
 * `{{variables}}` in prompts, read as the streaming service fills them (lib/domain/template.ts): a contact's
 * `contactName`, `phoneNumber` and every key of its `externalFields`, exact and case-sensitive.
 */
export const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Always known: every contact has them. */
export const BUILT_IN_VARIABLES = ['contactName', 'phoneNumber'] as const;

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
    out.push({ text: match[0], variable: { name: match[1]!, known: known.has(match[1]!) } });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** The distinct placeholder names of the text, in order of first use. */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]!))];
}
