import { MAX_LINE_CHARS } from './agent-test.js';

/**
 * A model persona (docs/agent-tests.md, "Model personas"): what the model playing the caller is told, what it
 * is shown of the conversation, and how its answer becomes the caller's next line or the end of the call.
 * Pure: the request itself is made by lib/services/agent-test-persona.ts.
 */

/** The persona says this when the caller would hang up; the words before it are said first. */
export const PERSONA_STOP_TOKEN = '[HANG_UP]';

/** The opening of every persona prompt. The LLM stand-in recognises a persona request by it (lib/local/standins/llm-persona.ts). */
export const PERSONA_PROMPT_OPENING = 'You are role-playing the caller in a test of a customer-service agent.';

/** The user turn that stands for "nothing said yet" when the caller speaks first (a model needs a user turn to answer). */
export const PERSONA_CALLER_FIRST = '(The conversation has started and the agent has said nothing yet. Say your first line.)';

/** The persona model's system prompt: its part, the turn format, the stop token, then the scenario's instructions. */
export function personaPrompt(instructions: string): string {
  return [
    PERSONA_PROMPT_OPENING,
    'Stay in character as the caller described below. Never act as the agent and never say that this is a test.',
    "The user messages are the agent's lines. Answer with only what the caller says next: one short spoken turn, no stage directions, no quotation marks around it.",
    `When the caller's goal is met, or the caller would hang up, end your turn with ${PERSONA_STOP_TOKEN} (alone, when there is nothing more to say).`,
    '',
    'The caller:',
    instructions,
  ].join('\n');
}

/** One line of the conversation as the caller's side saw it. */
export interface ShownLine {
  readonly role: 'user' | 'agent';
  readonly text: string;
}

/**
 * The conversation from the persona's side: the agent's lines are its `user` turns and the caller's own its
 * `assistant` turns; consecutive lines of one side are joined, and a conversation the caller opens starts
 * with {@link PERSONA_CALLER_FIRST}.
 */
export function personaTurns(shown: readonly ShownLine[]): { role: 'user' | 'assistant'; content: string }[] {
  const turns: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const line of shown) {
    const role = line.role === 'agent' ? 'user' : 'assistant';
    const last = turns.at(-1);
    if (last?.role === role) last.content = `${last.content}\n${line.text}`;
    else turns.push({ role, content: line.text });
  }
  if (turns[0]?.role !== 'user') turns.unshift({ role: 'user', content: PERSONA_CALLER_FIRST });
  return turns;
}

/** What the persona's answer means: a line to say (if any), and whether the caller then hangs up. */
export interface PersonaTurn {
  readonly text?: string;
  readonly hangUp: boolean;
}

/**
 * Reads the persona model's answer: the stop token (any case) ends the call after the words before it; an
 * answer with no words at all is read as hanging up too (a model with nothing to say has finished). A line
 * is cut to the chat's message limit, and wrapping quotation marks are dropped.
 */
export function readPersonaTurn(answer: string): PersonaTurn {
  const at = answer.toUpperCase().indexOf(PERSONA_STOP_TOKEN);
  const said = (at >= 0 ? answer.slice(0, at) : answer)
    .trim()
    .replace(/^["\u201c](.*)["\u201d]$/s, '$1')
    .trim()
    .slice(0, MAX_LINE_CHARS);
  const text = /[\p{L}\p{N}]/u.test(said) ? said : undefined;
  return { ...(text && { text }), hangUp: at >= 0 || !text };
}
