import { PERSONA_PROMPT_OPENING, PERSONA_STOP_TOKEN } from '../../domain/agent-test-persona.js';

/**
 * How the LLM stand-ins play an agent test's model persona (docs/agent-tests.md, "Model personas"), so a
 * persona scenario runs offline and gives the same conversation every time. A request is a persona's when
 * its system prompt opens as every persona prompt does. The "caller" says, in order, each line its
 * instructions quote ("..." or “...”) that it has not said yet, then the stop token; instructions that quote
 * nothing get their first sentence said in the first person, then the stop token.
 */

/** The parts of a stand-in request (./llm-script.ts, ScriptRequest) a persona reads. */
interface PersonaRequest {
  readonly messages: { readonly system: string; readonly turns: readonly { readonly role: string; readonly text: string }[] };
}

/** True when the request asks the model to play a test's caller. */
export const isPersonaRequest = (request: PersonaRequest): boolean => request.messages.system.startsWith(PERSONA_PROMPT_OPENING);

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The persona's next line, from its instructions and what it said before. */
export function personaReply(request: PersonaRequest): { text: string } {
  const { system, turns } = request.messages;
  const instructions = system.slice(system.indexOf('The caller:\n') + 'The caller:\n'.length);
  const said = new Set(turns.filter((t) => t.role === 'assistant').map((t) => norm(t.text)));
  const quoted = [...instructions.matchAll(/"([^"]+)"|\u201c([^\u201d]+)\u201d/g)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
  if (quoted.length > 0) {
    const next = quoted.find((q) => !said.has(norm(q)));
    return { text: next ?? PERSONA_STOP_TOKEN };
  }
  if (said.size > 0) return { text: PERSONA_STOP_TOKEN };
  const first = /^[^.!?\n]*[.!?]?/.exec(instructions.trim())?.[0] ?? instructions;
  return { text: firstPerson(first.trim()) };
}

/** "You want your order" → "I want my order": the instructions speak to the caller, the caller speaks for itself. */
function firstPerson(sentence: string): string {
  const out = sentence
    .replace(/\byou are\b/gi, 'I am')
    .replace(/\byou're\b/gi, "I'm")
    .replace(/\byourself\b/gi, 'myself')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b/gi, 'my')
    .replace(/\byou\b/gi, 'I');
  return out.charAt(0).toUpperCase() + out.slice(1);
}
