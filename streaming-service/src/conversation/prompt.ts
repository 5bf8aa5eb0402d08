// The templates live with the domain: the voicemail message (filled by the AMD webhook) uses them too.
import { contactVariables, fillTemplate } from '../../../lib/domain/template.js';
import type { CallSetup } from '../call/types.js';

export { contactVariables, fillTemplate };

/**
 * One of the agent's texts as the call speaks it. Admission already filled the agent's texts from the
 * call's variables (call/variables.ts): filling again would let a value that itself holds `{{name}}` pull in
 * another. A setup built by hand (tests) has no variables and is filled from its contact here.
 */
export const callText = (setup: Pick<CallSetup, 'variables' | 'contact'>, text: string): string =>
  setup.variables ? text : fillTemplate(text, contactVariables(setup.contact));

/**
 * What the model is told when it writes the greeting itself (`first_message_mode: model_generated`): a
 * message the model sees before anything the caller says, never spoken, shown nor in the transcript.
 */
export const GREETING_INSTRUCTION =
  '(The conversation has just started and nothing has been said yet. Open it as your instructions describe, in one or two short sentences.)';
