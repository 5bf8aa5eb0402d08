/**
 * Invariant: a call's `{{variables}}` fill the agent's texts and tools in the documented order (contact,
 * then the call's own, then the built-ins), `{{name|default}}` stands in for a missing or blank value, the
 * names a call must supply are exactly those without a default (built-ins always supplied), values cannot
 * break out of a tool URL's or JSON body's syntax, and `variables` is bounded in names, types and size.
 */
import { describe, expect, it } from 'vitest';
import { agentRequiredVariables, fillAgent, fillTool } from '../../lib/domain/call-template.js';
import { builtInVariables, callVariables, CallVariables, fillTemplate, missingVariables, requiredVariables } from '../../lib/domain/template.js';

const contact = { contactName: 'Ada', phoneNumber: '+14155550100', externalFields: { plan: 'gold', first_name: 'Ada', timeZone: 'America/New_York' } };
const facts = { callId: 'call_1', direction: 'outbound', callerNumber: '+14155550999', calledNumber: '+14155550100', nowMs: Date.parse('2026-12-02T15:04:00Z') } as const;

describe('filling templates', () => {
  it('fills names, takes the default for a missing or blank value, and leaves a gap only without one', () => {
    const vars = { first_name: 'Ada', blank: '  ' };
    expect(fillTemplate('Hi {{first_name}}, {{ blank | friend }} and {{nobody|there}}; {{gone}}.', vars)).toBe('Hi Ada, friend and there; .');
    expect(fillTemplate('{{x|}}!', {})).toBe('!');
  });

  it('layers the contact, the call and the built-ins, the call winning over the contact', () => {
    const vars = callVariables(contact, { plan: 'platinum', seats: 3, vip: true }, { ...facts, timeZone: 'America/New_York' });
    expect(vars).toMatchObject({ contactName: 'Ada', plan: 'platinum', seats: '3', vip: 'true', call_id: 'call_1', direction: 'outbound', caller_number: '+14155550999', called_number: '+14155550100' });
    expect(vars.current_date).toBe('2026-12-02');
    expect(vars.current_time).toBe('10:04');
    expect(vars.timezone).toBe('America/New_York');
  });

  it('reads the date in UTC without a zone, or with one that does not exist', () => {
    expect(builtInVariables(facts)).toMatchObject({ current_time: '15:04', timezone: 'UTC' });
    expect(builtInVariables({ ...facts, timeZone: 'Mars/Olympus' })).toMatchObject({ current_time: '15:04', timezone: 'UTC' });
  });
});

describe('what a call must supply', () => {
  const agent = {
    system_prompt: 'Help {{first_name}} with order {{order_id}} on {{current_date}}.',
    first_message: 'Hi {{first_name|there}}!',
    voicemail_message: 'Call {{callback}} back.',
    analysis: { summaryPrompt: 'Summarize {{topic}}.' },
  };
  const tools = [{ config: { url: 'https://api.example.com/o/{{order_id}}?q={q}', body: { account: '{{account}}', n: 1 } } }];

  it('names every text and tool placeholder without a default, once each', () => {
    expect(agentRequiredVariables(agent, tools).sort()).toEqual(['account', 'callback', 'current_date', 'first_name', 'order_id', 'topic']);
    expect(requiredVariables('{{a|x}} {{b}}')).toEqual(['b']);
  });

  it('counts built-ins as supplied and blank values as missing', () => {
    expect(missingVariables(['current_date', 'call_id', 'first_name', 'order_id'], { first_name: ' ' })).toEqual(['first_name', 'order_id']);
  });

  it('fills the agent and its tools, encoding values for a URL and a JSON string body', () => {
    const vars = { first_name: 'Ada', order_id: 'A/1 2', callback: '555', topic: 'billing', account: 'acc"1' };
    const filled = fillAgent({ ...agent, llm_model: 'm' }, vars);
    expect(filled).toMatchObject({ system_prompt: 'Help Ada with order A/1 2 on .', first_message: 'Hi Ada!', voicemail_message: 'Call 555 back.', analysis: { summaryPrompt: 'Summarize billing.' }, llm_model: 'm' });
    const tool = fillTool(tools[0]!, vars);
    expect(tool.config.url).toBe('https://api.example.com/o/A%2F1%202?q={q}');
    expect(tool.config.body).toEqual({ account: 'acc"1', n: 1 });
    const text = fillTool({ config: { body: '{"a": "{{account}}"}', headers: { 'x-acct': '{{account}}' } } }, vars);
    expect(JSON.parse(text.config.body as string)).toEqual({ a: 'acc"1' });
    expect(text.config.headers).toEqual({ 'x-acct': 'acc"1' });
  });
});

describe('the variables field', () => {
  it('takes strings, numbers and booleans under well-formed names', () => {
    expect(CallVariables.safeParse({ first_name: 'Ada', n: 2, vip: false, 'a.b-c': 'x' }).success).toBe(true);
  });

  it.each([
    ['an object value', { a: { b: 1 } }],
    ['a null value', { a: null }],
    ['a name with a space', { 'first name': 'x' }],
    ['a name starting with a digit', { '1a': 'x' }],
    ['a built-in name', { call_id: 'x' }],
    ['too many names', Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, i]))],
    ['a long value', { a: 'x'.repeat(2_001) }],
    ['more than 16 KB', Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`v${i}`, 'x'.repeat(1_900)]))],
  ])('refuses %s', (_what, value) => {
    expect(CallVariables.safeParse(value).success).toBe(false);
  });
});
