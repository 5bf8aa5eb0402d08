import type { Contact } from './contact.js';

/**
 * Fills `{{variable}}` placeholders (system prompt, first message, voicemail message) from the contact:
 * `{{contactName}}`, `{{phoneNumber}}` and every `externalFields` key (exact, case-sensitive names).
 * Placeholders with no value (unknown names, or no contact for this caller) become empty: a model shown a
 * literal `{{contactName}}` tends to read it aloud, which is worse than a sentence with a gap.
 */
export function contactVariables(contact: Contact | undefined): Record<string, string> {
  if (!contact) return {};
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(contact.externalFields ?? {})) vars[k] = String(v);
  vars.contactName = contact.contactName;
  vars.phoneNumber = contact.phoneNumber;
  return vars;
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

export function fillTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(VARIABLE, (_m, name: string) => (Object.hasOwn(vars, name) ? vars[name]! : ''));
}
