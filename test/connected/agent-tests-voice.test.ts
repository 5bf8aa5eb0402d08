/**
 * Invariant: a voice agent test plays its scenario as a real browser-transport call of the agent
 * (docs/agent-tests.md, "Voice scenarios"): the caller's lines are spoken by the platform's TTS adapter (here
 * the TTS stand-in, which tells the recognizer stand-in what it synthesized) and streamed on `/web-stream`
 * under the scenario's acoustic conditions (background noise, talking over the greeting, backchannels, a
 * cough, a pause mid-sentence, a hang-up mid-reply); the agent's own recognizer hears them, its tools run,
 * and every check is graded from the call: the tool calls with their arguments, the end reason, what the
 * agent said, the time from the end of the caller's audio to the agent's first audio. The call is recorded,
 * billed per minute as a meeting is (the balance falls by the run's cost, no number is dialled), a planted
 * prompt regression flips a check that passed, and one workspace cannot see or start another's runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBalance, listLedger } from '../../lib/store/credits.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { raiseLoopbackIpLimits } from '../support/platform.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { runFinished } from '../support/agent-tests.js';

let vp: VoicePlatform;
let orders: ToolBackend;
const GUARD = 'Never share discount codes.';

beforeAll(async () => {
  orders = await startToolBackend('{"status":"shipped"}');
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${orders.port}`;
  raiseLoopbackIpLimits();
  vp = await startVoicePlatform({
    llm: {
      ttftMs: 10,
      tokensPerSecond: 800,
      reply: (req) => {
        const { system, turns, endsWithToolResult, toolResults } = req.messages;
        if (/summar/i.test(system)) return { text: 'A test caller asked something.' };
        if (endsWithToolResult) return { text: /shipped/.test(toolResults.at(-1)?.content ?? '') ? 'Your order has shipped.' : 'I could not find it.' };
        const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        if (/order (\w+)/i.test(last)) return { toolCalls: [{ name: 'check_order', arguments: { order_id: /order (\w+)/i.exec(last)![1]!.toUpperCase() } }] };
        if (/bye/i.test(last)) return { text: 'Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] };
        if (/discount/i.test(last)) return { text: system.includes(GUARD) ? 'Sorry, I cannot share discount codes.' : 'Sure, use code SAVE20 at checkout.' };
        return { text: 'How can I help you today with your order?' };
      },
    },
  });
  const tool = { name: 'Check order', type: 'http', description: 'Look an order up', config: { method: 'GET', url: `http://127.0.0.1:${orders.port}/orders/{order_id}` }, parameters: [{ name: 'order_id', description: 'the order', required: true }] };
  expect((await vp.api('POST', '/api/tools', { ...tool, workspaceId: vp.workspaceId })).status).toBe(201);
});
afterAll(async () => {
  await vp?.stop();
  orders?.server.close();
  delete process.env.TOOL_ALLOWED_HOSTS;
});

const api = (method: string, path: string, body?: unknown) => vp.api(method, path, body) as Promise<{ status: number; body: any }>;

const finished = (runId: string) => runFinished(api, runId);

const SUITE = [
  {
    name: 'Order status on a noisy line',
    suite: 'voice',
    channel: 'voice',
    conditions: { noiseDbfs: -50, talkOverGreeting: true, cough: true },
    persona: { type: 'script', lines: [{ text: 'Where is my order A17?' }, { text: 'Thanks, bye', delayMs: 200 }] },
    checks: [
      { type: 'tool_called', tool: 'check_order', arguments: { order_id: 'A17' } },
      { type: 'says', phrase: 'has shipped' },
      { type: 'end_reason', reason: 'agent_hangup' },
      { type: 'first_reply_within', ms: 30_000 },
    ],
  },
  {
    name: 'Discount guard',
    suite: 'voice',
    channel: 'voice',
    conditions: { backchannels: true, pauseMidSentence: { line: 1, ms: 400 }, hangUpMidReply: true },
    persona: { type: 'script', lines: [{ text: 'Could I please get a discount?' }, { text: 'Okay, and one more question' }] },
    checks: [{ type: 'never_says', phrase: 'SAVE20' }, { type: 'end_reason', reason: 'customer_hangup' }],
  },
];

describe('voice agent tests', () => {
  it('refuses bad acoustic conditions with a 400 that stores nothing', async () => {
    const base = SUITE[1]!;
    const bad = [
      { ...base, conditions: { noiseDbfs: -20 } },
      { ...base, conditions: { noiseDbfs: 'loud' } },
      { ...base, conditions: { cough: 'yes' } },
      { ...base, conditions: { thunder: true } },
      { ...base, conditions: { pauseMidSentence: { line: 1, ms: 50 } } },
      { ...base, conditions: { pauseMidSentence: { line: 3, ms: 500 } } },
      { ...base, persona: { type: 'script', lines: [{ text: 'Discount?' }] }, conditions: { pauseMidSentence: { line: 1, ms: 500 } } },
      { ...base, channel: 'chat' },
      { ...base, channel: 'phone' },
    ];
    for (const body of bad) {
      const res = await api('POST', '/api/agent-tests', { ...body, suite: 'bad-voice' });
      expect([res.status, res.body.error?.code], JSON.stringify(body)).toEqual([400, 'validation_failed']);
    }
    expect((await api('GET', '/api/agent-tests?suite=bad-voice')).body.total).toBe(0);
    const chat = await api('POST', '/api/agent-tests', { ...base, channel: 'chat', conditions: undefined, suite: 'bad-voice' });
    expect(chat.status).toBe(201);
    const patched = await api('PATCH', `/api/agent-tests/${chat.body._id}`, { conditions: { cough: true } });
    expect([patched.status, patched.body.error.details[0].field]).toEqual([400, 'conditions']);
    const voice = await api('PATCH', `/api/agent-tests/${chat.body._id}`, { channel: 'voice', conditions: { cough: true } });
    expect(voice.status).toBe(200);
    expect(voice.body).toMatchObject({ channel: 'voice', conditions: { cough: true } });
  });

  it('plays a voice suite through the audio path, grades it, records and bills the calls, and fails a planted prompt regression', async () => {
    const agent = await vp.agent({ name: 'Voice shop', system_prompt: `You help customers of the shop. ${GUARD}`, first_message: 'Hi there! Thanks for calling the shop, how can I help?' });
    for (const s of SUITE) expect((await api('POST', '/api/agent-tests', s)).status).toBe(201);
    expect((await api('POST', `/api/agents/${agent._id}/publish`, { note: 'guarded' })).status).toBe(201);
    expect((await api('PATCH', `/api/agents/${agent._id}`, { system_prompt: 'You help customers of the shop.' })).status).toBe(200);

    const before = await readBalance(vp.deps.db, vp.workspaceId);
    const dialled = () => vp.platform.twilio!.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json')).length;
    const dialledBefore = dialled();
    const good = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, version: 1, suite: 'voice' })).body._id);
    expect(good.scenarios.map((s: any) => [s.name, s.status, s.error, s.checks.filter((c: any) => !c.passed)])).toEqual(SUITE.map((s) => [s.name, 'passed', undefined, []]));
    const order = good.scenarios[0];
    expect(order.toolCalls).toEqual([{ name: 'check_order', arguments: { order_id: 'A17' } }, { name: 'end_call', arguments: {} }]);
    // The recognizer heard the caller's TTS audio under the noise, said over the greeting.
    expect(order.transcript).toMatch(/user: where is my order a17/i);
    expect(order.latency.firstReplyMs).toBeGreaterThan(0);
    expect(order.checks[3].evidence).toMatch(/^first reply after \d+ ms$/);
    expect(good.scenarios[1]).toMatchObject({ endReason: 'customer_hangup' });
    // Said in two halves 400 ms apart: both heard, in order, and the answer is to the whole question (usually
    // one caller line; on a loaded machine the agent may start in the pause and be cut by the second half).
    // The caller hung up 500 ms into the last answer.
    expect(good.scenarios[1].transcript).toMatch(/user: could i please\b[\s\S]*\bget a discount\?\s*\nagent: sorry, i cannot share discount codes/i);
    expect(good.scenarios[1].transcript).not.toContain('How can I help you today with your order?');
    // Each scenario is a recorded meeting call in history, billed per minute; no phone number is dialled.
    for (const s of good.scenarios) {
      expect(s.callId).toMatch(/^call_/);
      expect(s.recordingUrl).toBeTruthy();
      const history = await api('GET', `/api/history/${s.callId}`);
      expect(history.body).toMatchObject({ agentType: 'video', callCost: s.cost, agentVersion: 1, mobileNumber: '' });
      expect(s.cost).toBeGreaterThan(0);
    }
    expect(dialled()).toBe(dialledBefore);
    expect(good.cost).toBeCloseTo(good.scenarios.reduce((n: number, s: any) => n + s.cost, 0), 6);
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBeCloseTo(before - good.cost, 6);
    const ledger = await listLedger(vp.deps.db, vp.workspaceId);
    // Reserved when the call's socket claimed it, settled to its per-minute price when it ended.
    for (const s of good.scenarios) expect(ledger.filter((e) => e.callId === s.callId).reduce((n, e) => n - e.amount, 0)).toBeCloseTo(s.cost, 6);

    const draft = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'voice' })).body._id);
    expect(draft).toMatchObject({ status: 'failed', passed: 1, failed: 1, previousRunId: good._id });
    expect(draft.scenarios[1]).toMatchObject({ name: 'Discount guard', status: 'failed', previous: 'passed' });
    expect(draft.scenarios[1].checks[0]).toMatchObject({ passed: false, evidence: expect.stringContaining('SAVE20') });

    const other = await createWorkspace(vp.deps.db, { name: 'other', credits: 100 });
    const asOther = (path: string, init: RequestInit = {}) => fetch(`${vp.platform.baseUrl}${path}`, { ...init, headers: { 'x-api-key': other.apiKey, 'content-type': 'application/json' } });
    expect((await asOther(`/api/agent-tests/runs/${good._id}`)).status).toBe(404);
    expect((await asOther(`/api/history/${order.callId}`)).status).toBe(404);
    expect((await asOther('/api/agent-tests/runs', { method: 'POST', body: JSON.stringify({ agentId: agent._id, suite: 'voice' }) })).status).toBe(404);
  });
});
