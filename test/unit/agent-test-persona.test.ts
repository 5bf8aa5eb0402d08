/**
 * Invariant: a model persona's answer becomes the caller's next line or the end of the call exactly as
 * docs/agent-tests.md says (the words before the stop token are said, then the caller hangs up; an answer
 * with no words hangs up), the persona model sees the agent's lines as its user turns and its own as
 * assistant turns, and the LLM stand-in plays a persona deterministically: its instructions' quoted lines
 * in order, each once, then the stop token.
 */
import { describe, expect, it } from 'vitest';
import { ScenarioCreate } from '../../lib/domain/agent-test.js';
import { PERSONA_CALLER_FIRST, PERSONA_STOP_TOKEN, personaPrompt, personaTurns, readPersonaTurn } from '../../lib/domain/agent-test-persona.js';
import { personaReply } from '../../lib/local/standins/llm-persona.js';
import { defaultReply, type ScriptRequest } from '../../lib/local/standins/llm.js';

const request = (instructions: string, turns: { role: 'user' | 'assistant'; text: string }[]): ScriptRequest => ({
  vendor: 'openai',
  model: 'gpt-4o-mini',
  messages: { system: personaPrompt(instructions), turns: turns.map((t) => ({ ...t, toolCalls: [] })), toolResults: [], endsWithToolResult: false },
  tools: [],
});

describe('reading the persona model', () => {
  it('says the words before the stop token and then hangs up; without it the line is said and the call goes on', () => {
    expect(readPersonaTurn('Thanks, that is all. [HANG_UP]')).toEqual({ text: 'Thanks, that is all.', hangUp: true });
    expect(readPersonaTurn('ok bye [hang_up] and more')).toEqual({ text: 'ok bye', hangUp: true });
    expect(readPersonaTurn(PERSONA_STOP_TOKEN)).toEqual({ hangUp: true });
    expect(readPersonaTurn('  "Where is my order?"  ')).toEqual({ text: 'Where is my order?', hangUp: false });
    expect(readPersonaTurn('…')).toEqual({ hangUp: true });
    expect(readPersonaTurn('x'.repeat(2_500)).text).toHaveLength(2_000);
  });

  it("shows the agent's lines as user turns and the caller's as assistant turns, opening with a user turn", () => {
    expect(personaTurns([])).toEqual([{ role: 'user', content: PERSONA_CALLER_FIRST }]);
    expect(
      personaTurns([
        { role: 'agent', text: 'Hi!' },
        { role: 'agent', text: 'How can I help?' },
        { role: 'user', text: 'My order?' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Hi!\nHow can I help?' },
      { role: 'assistant', content: 'My order?' },
    ]);
    expect(personaTurns([{ role: 'user', text: 'Hello?' }])[0]).toEqual({ role: 'user', content: PERSONA_CALLER_FIRST });
  });

  it('puts the instructions after the part and the stop token', () => {
    const prompt = personaPrompt('You are Dana.');
    expect(prompt.endsWith('The caller:\nYou are Dana.')).toBe(true);
    expect(prompt).toContain(PERSONA_STOP_TOKEN);
    expect(prompt).not.toMatch(/summar/i);
  });
});

describe('the persona schema', () => {
  const base = { name: 'P', checks: [{ type: 'says', phrase: 'hi' }] };
  it('takes instructions up to 4,000 characters, a first line up to the chat limit and a vendor model', () => {
    expect(ScenarioCreate.safeParse({ ...base, persona: { type: 'model', instructions: 'x'.repeat(4_000), firstLine: 'y'.repeat(2_000), model: { provider: 'anthropic', model: 'claude-haiku-4-5' } } }).success).toBe(true);
    expect(ScenarioCreate.safeParse({ ...base, persona: { type: 'model', instructions: 'x'.repeat(4_001) } }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...base, persona: { type: 'model', instructions: 'Hi', firstLine: 'y'.repeat(2_001) } }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...base, persona: { type: 'model', instructions: 'Hi', model: { provider: 'custom', model: 'm' } } }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...base, persona: { type: 'model' } }).success).toBe(false);
  });
});

describe('the LLM stand-in as a persona', () => {
  const instructions = 'You want a refund. Say "I want a refund." then \u201cIt arrived broken.\u201d';
  it("says each quoted line once, in order, then the stop token, whatever the agent said", () => {
    expect(defaultReply(request(instructions, [{ role: 'user', text: 'Hello' }]))).toEqual({ text: 'I want a refund.' });
    expect(personaReply(request(instructions, [{ role: 'user', text: 'Hello' }, { role: 'assistant', text: 'I want a refund.' }, { role: 'user', text: 'Why?' }]))).toEqual({ text: 'It arrived broken.' });
    const done = [{ role: 'assistant' as const, text: 'i want a refund' }, { role: 'assistant' as const, text: 'It arrived broken.' }];
    expect(personaReply(request(instructions, done))).toEqual({ text: PERSONA_STOP_TOKEN });
  });

  it('without quotes, says the first sentence in the first person, then hangs up', () => {
    expect(personaReply(request('You want to move your appointment to Friday. Be polite.', []))).toEqual({ text: 'I want to move my appointment to Friday.' });
    expect(personaReply(request('You want to move your appointment.', [{ role: 'assistant', text: 'I want to move my appointment.' }]))).toEqual({ text: PERSONA_STOP_TOKEN });
  });
});
