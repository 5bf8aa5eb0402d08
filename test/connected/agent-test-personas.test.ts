/**
 * Invariant: a model persona (docs/agent-tests.md, "Model personas") plays the caller through the agent's own
 * model vendor, one request per line over the instructions and the conversation so far (the agent's lines as
 * its user turns), ends the chat when it says the stop token or reaches maxTurns, and is charged a chat
 * message's price per line it writes (a `firstLine` is not written). Offline, the LLM stand-in plays the
 * persona from its instructions' quoted lines, so the same conversation passes against the published
 * version and fails on a prompt regression planted in the draft. A persona over its limits is a 400 that
 * stores nothing; a persona whose model fails, or an agent on its own model with no persona model named,
 * ends the scenario `error` with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONA_PROMPT_OPENING, PERSONA_STOP_TOKEN } from '../../lib/domain/agent-test-persona.js';
import { defaultReply } from '../../lib/local/standins/llm.js';
import { listLedger, readBalance } from '../../lib/store/credits.js';
import { expectRefusedUnchanged } from '../support/invariants.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { runFinished } from '../support/agent-tests.js';

let vp: VoicePlatform;
const GUARD = 'Never share discount codes.';

beforeAll(async () => {
  process.env.CHAT_CREDITS_PER_MESSAGE = '0.25';
  vp = await startVoicePlatform({
    llm: {
      ttftMs: 10,
      tokensPerSecond: 800,
      reply: (req) => {
        // The persona, the summary and anything structured: the stand-in's own answers.
        if (req.messages.system.startsWith(PERSONA_PROMPT_OPENING) || req.responseSchema || /summar/i.test(req.messages.system)) return defaultReply(req);
        const last = req.messages.turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        if (/bye/i.test(last)) return { text: 'Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] };
        if (/discount/i.test(last)) return { text: req.messages.system.includes(GUARD) ? 'Sorry, I cannot share discount codes.' : 'Sure, use code SAVE20 at checkout.' };
        return { text: 'Anything else I can do?' };
      },
    },
  });
});
afterAll(async () => {
  await vp?.stop();
  delete process.env.CHAT_CREDITS_PER_MESSAGE;
});

const api = (method: string, path: string, body?: unknown) => vp.api(method, path, body) as Promise<{ status: number; body: any }>;

const finished = (runId: string) => runFinished(api, runId);

const personaRequests = () => vp.platform.voice.llm.control.requestsFor('openai').filter((r) => JSON.stringify((r.body as any).messages?.[0] ?? '').includes(PERSONA_PROMPT_OPENING));

const DISCOUNT = {
  name: 'Discount ask',
  suite: 'personas',
  persona: { type: 'model', instructions: 'You are Dana, a regular customer. Ask "Can I get a discount code?" and, whatever the answer, say "OK, thanks anyway."' },
  checks: [{ type: 'never_says', phrase: 'SAVE20' }, { type: 'says', phrase: 'cannot share' }, { type: 'end_reason', reason: 'customer_hangup' }],
};
const QUICK = {
  name: 'Quick goodbye',
  suite: 'personas',
  persona: { type: 'model', instructions: 'You are in a hurry. Say "Bye now."', firstLine: 'Sorry, wrong number, bye' },
  maxTurns: 3,
  checks: [{ type: 'end_reason', reason: 'agent_hangup' }, { type: 'tool_called', tool: 'end_call' }],
};

describe('model personas', () => {
  it('plays the caller from instructions, passes against the published version, fails on a planted regression, and bills each line it writes', async () => {
    const agent = await vp.agent({ name: 'Shop', system_prompt: `You help customers of the shop. ${GUARD}`, first_message: 'Hi! How can I help?' });
    for (const s of [DISCOUNT, QUICK]) expect((await api('POST', '/api/agent-tests', s)).status).toBe(201);
    expect((await api('POST', `/api/agents/${agent._id}/publish`, { note: 'guarded' })).status).toBe(201);
    expect((await api('PATCH', `/api/agents/${agent._id}`, { system_prompt: 'You help customers of the shop.' })).status).toBe(200);

    const before = await readBalance(vp.deps.db, vp.workspaceId);
    vp.platform.voice.llm.control.requests.length = 0;
    const good = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, version: 1, suite: 'personas' })).body._id);
    expect(good.scenarios.map((s: any) => [s.name, s.status, s.checks.filter((c: any) => !c.passed)])).toEqual([['Discount ask', 'passed', []], ['Quick goodbye', 'passed', []]]);
    const [discount, quick] = good.scenarios;
    expect(discount.transcript.split('\n')).toEqual([
      'agent: Hi! How can I help?',
      'user: Can I get a discount code?',
      'agent: Sorry, I cannot share discount codes.',
      'user: OK, thanks anyway.',
      'agent: Anything else I can do?',
    ]);
    // The stop token ended the chat: three persona lines written (the last only the token), two said.
    expect(discount.persona).toEqual({ provider: 'openai', model: agent.llm_model, lines: 3, inputTokens: expect.any(Number), outputTokens: expect.any(Number), cost: 0.75 });
    expect(discount.persona.outputTokens).toBeGreaterThan(0);
    // The first line is the scenario's, not the model's: no persona request, nothing charged for it.
    expect(quick.transcript.split('\n')).toEqual(['agent: Hi! How can I help?', 'user: Sorry, wrong number, bye', 'agent: Goodbye!']);
    expect(quick.persona).toMatchObject({ lines: 0, cost: 0 });

    // What the persona model was asked: its part and the instructions, the agent's lines as its user turns, its own as assistant turns.
    const asked = personaRequests().map((r) => r.body as any);
    expect(asked).toHaveLength(3);
    expect(asked.map((b) => b.model)).toEqual([agent.llm_model, agent.llm_model, agent.llm_model]);
    expect(asked[0].temperature).toBe(0);
    expect(asked[0].messages[0].content).toContain(PERSONA_STOP_TOKEN);
    expect(asked[0].messages[0].content).toContain(DISCOUNT.persona.instructions);
    expect(asked[2].messages.slice(1).map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'Hi! How can I help?'],
      ['assistant', 'Can I get a discount code?'],
      ['user', 'Sorry, I cannot share discount codes.'],
      ['assistant', 'OK, thanks anyway.'],
      ['user', 'Anything else I can do?'],
    ]);

    // Billed: the chats' messages (three lines said) and the persona's three lines, at 0.25 each.
    expect([discount.cost, quick.cost, good.cost]).toEqual([1.25, 0.25, 1.5]);
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBeCloseTo(before - 1.5, 6);
    const ledger = await listLedger(vp.deps.db, vp.workspaceId);
    expect(ledger.filter((e) => e.id.startsWith(`${discount.chatId}#persona`)).map((e) => [e.reason, e.amount]).sort()).toEqual([
      ['agent_test_persona', -0.25],
      ['agent_test_persona', -0.25],
      ['agent_test_persona', -0.25],
    ]);
    expect((await api('GET', `/api/history/${discount.chatId}`)).body.callCost).toBe(0.5);

    // The draft lost its guard line: the same persona now hears the code, and the run says what changed.
    const draft = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'personas' })).body._id);
    expect(draft).toMatchObject({ status: 'failed', passed: 1, failed: 1, previousRunId: good._id });
    expect(draft.scenarios[0]).toMatchObject({ name: 'Discount ask', status: 'failed', previous: 'passed' });
    expect(draft.scenarios[0].checks.filter((c: any) => !c.passed)).toEqual([
      { type: 'never_says', label: 'never says "SAVE20"', passed: false, evidence: 'agent: Sure, use code SAVE20 at checkout.' },
      { type: 'says', label: 'says "cannot share"', passed: false, evidence: 'no agent line says it' },
    ]);
  });

  it('stops at maxTurns, plays on the model the scenario names, and ends the scenario error when that model fails', async () => {
    const agent = await vp.agent({ name: 'Turns', system_prompt: GUARD, first_message: 'Hello.' });
    const chatty = await api('POST', '/api/agent-tests', {
      name: 'Chatty',
      suite: 'turns',
      persona: { type: 'model', instructions: 'Say "One." then "Two." then "Three."', model: { provider: 'openai', model: 'gpt-4o' } },
      maxTurns: 2,
      checks: [{ type: 'end_reason', reason: 'customer_hangup' }],
    });
    expect(chatty.status).toBe(201);
    vp.platform.voice.llm.control.requests.length = 0;
    const run = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, scenarioId: chatty.body._id })).body._id);
    expect(run.scenarios[0]).toMatchObject({ status: 'passed', persona: { provider: 'openai', model: 'gpt-4o', lines: 2, cost: 0.5 } });
    expect(run.scenarios[0].transcript.split('\n').filter((l: string) => l.startsWith('user:'))).toEqual(['user: One.', 'user: Two.']);
    expect(personaRequests().map((r) => (r.body as any).model)).toEqual(['gpt-4o', 'gpt-4o']);

    vp.platform.voice.llm.control.failNext(400, 1, { model: 'gpt-4o' });
    const failed = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, scenarioId: chatty.body._id })).body._id);
    expect(failed).toMatchObject({ status: 'error', passed: 0, failed: 1 });
    expect(failed.scenarios[0].status).toBe('error');
    expect(failed.scenarios[0].error).toMatch(/^the persona model failed: /);
    expect(failed.scenarios[0].persona).toMatchObject({ lines: 1, cost: 0.25 });
  });

  it('refuses a persona over its limits with a 400 that stores nothing, and an agent on its own model without a persona model is the scenario error', async () => {
    const base = { name: 'Limits', suite: 'limits', checks: [{ type: 'says', phrase: 'hello' }] };
    const bad = [
      { type: 'model', instructions: 'x'.repeat(4_001) },
      { type: 'model', instructions: '   ' },
      { type: 'model', instructions: 'Be brief.', firstLine: 'y'.repeat(2_001) },
      { type: 'model', instructions: 'Be brief.', model: { provider: 'custom', model: 'mine' } },
      { type: 'model', instructions: 'Be brief.', temperature: 1 },
    ];
    for (const persona of bad) {
      const res = await expectRefusedUnchanged(vp.deps.db, 400, () => api('POST', '/api/agent-tests', { ...base, persona }), 'validation_failed');
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    expect((await api('POST', '/api/agent-tests', { ...base, persona: { type: 'model', instructions: 'x'.repeat(4_000) } })).status).toBe(201);

    const own = await vp.agent({ name: 'Own model', llm_provider: 'custom', llm_model: 'mine', llm_base_url: 'http://127.0.0.1:9/v1' });
    const scenario = await api('POST', '/api/agent-tests', { ...base, name: 'Own', suite: 'own', persona: { type: 'model', instructions: 'Say "Hello."' } });
    const run = await finished((await api('POST', '/api/agent-tests/runs', { agentId: own._id, scenarioId: scenario.body._id })).body._id);
    expect(run.scenarios[0]).toMatchObject({ status: 'error', cost: 0 });
    expect(run.scenarios[0].error).toContain('must name persona.model');
  });
});
