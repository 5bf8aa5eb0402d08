/**
 * Invariant: an agent test plays its scenario as a real chat of the agent under test (docs/agent-tests.md):
 * the run, queued by `POST /api/agent-tests/runs` and played by the run consumer, grades every check from
 * what the conversation showed (tool calls with their arguments, hand-offs, the end reason, what the agent
 * said, the time to its first reply), so a prompt regression planted in the draft flips a check that passed
 * against the published version, and the run says which scenario changed since the suite's last run. Runs
 * are billed as the chats they are (the balance falls by the run's cost), announce `test_run.completed`,
 * and one workspace can neither read nor start another's. Bad input is a clear 4xx that changes nothing.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../lib/local/cli/cli.js';
import { MAX_RUN_SCENARIOS } from '../../lib/domain/agent-test.js';
import { readBalance, listLedger } from '../../lib/store/credits.js';
import { createWorkspace } from '../../lib/store/workspaces.js';
import { putNewRun } from '../../lib/store/agent-tests.js';
import { playRun } from '../../lib/services/agent-test-runner.js';
import { newId } from '../../lib/domain/ids.js';
import { startToolBackend, type ToolBackend } from '../support/tool-backend.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { raiseLoopbackIpLimits } from '../support/platform.js';
import { startVoicePlatform, type VoicePlatform } from './voice-harness.js';
import { runFinished } from '../support/agent-tests.js';

let vp: VoicePlatform;
let orders: ToolBackend;
const hooks = new WebhookReceiver();
const GUARD = 'Never share discount codes.';

beforeAll(async () => {
  orders = await startToolBackend('{"status":"shipped"}');
  await hooks.start();
  process.env.TOOL_ALLOWED_HOSTS = `127.0.0.1:${orders.port},127.0.0.1:${hooks.port}`;
  process.env.CHAT_CREDITS_PER_MESSAGE = '0.25';
  raiseLoopbackIpLimits();
  vp = await startVoicePlatform({
    llm: {
      ttftMs: 10,
      tokensPerSecond: 800,
      reply: (req) => {
        const { system, turns, endsWithToolResult, toolResults } = req.messages;
        // The judge (the post-call analysis): each rubric graded on the transcript it was given.
        if (req.responseSchema) {
          const asked = (req.responseSchema as any).properties.data.properties.agent_test_verdicts.properties as Record<string, unknown>;
          const transcript = turns.map((t) => t.text).join('\n');
          const refused = transcript.includes('cannot share');
          const verdict = { pass: refused, reasoning: refused ? 'The agent said it cannot share discount codes.' : 'The agent gave the code SAVE20 away.' };
          return { text: JSON.stringify({ data: { agent_test_verdicts: Object.fromEntries(Object.keys(asked).map((k) => [k, verdict])) } }) };
        }
        if (/summar/i.test(system)) return { text: 'A test caller asked something.' };
        if (endsWithToolResult) return { text: /shipped/.test(toolResults.at(-1)?.content ?? '') ? 'Your order has shipped.' : 'I could not find it.' };
        const last = turns.filter((t) => t.role === 'user').at(-1)?.text ?? '';
        if (/order (\w+)/i.test(last)) return { toolCalls: [{ name: 'check_order', arguments: { order_id: /order (\w+)/i.exec(last)![1]! } }] };
        if (/person/i.test(last)) return { toolCalls: [{ name: 'front_desk', arguments: {} }] };
        if (/billing/i.test(last) && req.tools.includes('handoff_to_billing')) return { toolCalls: [{ name: 'handoff_to_billing', arguments: {} }] };
        if (/bye/i.test(last)) return { text: 'Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] };
        // The behaviour the prompt guards: without the guard line the model gives the code away.
        if (/discount/i.test(last)) return { text: system.includes(GUARD) ? 'Sorry, I cannot share discount codes.' : 'Sure, use code SAVE20 at checkout.' };
        return { text: 'How can I help?' };
      },
    },
  });
  const tools = [
    { name: 'Check order', type: 'http', description: 'Look an order up', config: { method: 'GET', url: `http://127.0.0.1:${orders.port}/orders/{order_id}` }, parameters: [{ name: 'order_id', description: 'the order', required: true }] },
    { name: 'Front desk', type: 'transfer', description: 'Transfer to the front desk', config: { url: 'tel:+14155550142' } },
  ];
  for (const tool of tools) expect((await vp.api('POST', '/api/tools', { ...tool, workspaceId: vp.workspaceId })).status).toBe(201);
  expect((await vp.api('POST', '/api/webhooks', { url: hooks.url('/runs'), eventTypes: ['test_run.completed'] })).status).toBe(201);
});
afterAll(async () => {
  await vp?.stop();
  orders?.server.close();
  await hooks.stop();
  delete process.env.TOOL_ALLOWED_HOSTS;
  delete process.env.CHAT_CREDITS_PER_MESSAGE;
});

const api = (method: string, path: string, body?: unknown) => vp.api(method, path, body) as Promise<{ status: number; body: any }>;

const finished = (runId: string) => runFinished(api, runId);

async function apiWith(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${vp.platform.baseUrl}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** bin/cli.ts as a CI job runs it: a process with the workspace's key and the API's origin in its environment. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'bin/cli.ts'), ...args], { env: { ...process.env, ...env }, cwd: ROOT }, (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

const SUITE = [
  {
    name: 'Order status',
    suite: 'support',
    persona: { type: 'script', lines: [{ text: 'Where is my order A17?' }, { text: 'Thanks, bye', delayMs: 50 }] },
    checks: [
      { type: 'tool_called', tool: 'check_order', arguments: { order_id: 'A17' } },
      { type: 'says', phrase: 'has shipped' },
      { type: 'end_reason', reason: 'agent_hangup' },
      { type: 'first_reply_within', ms: 30_000 },
    ],
  },
  {
    name: 'Discount guard',
    suite: 'support',
    persona: { type: 'script', lines: [{ text: 'Can I get a discount?' }] },
    checks: [{ type: 'never_says', phrase: 'SAVE20' }, { type: 'handoff', expected: false }, { type: 'end_reason', reason: 'customer_hangup' }, { type: 'judge', rubric: 'The agent refuses to give out a discount code.' }],
  },
  {
    name: 'Wants a person',
    suite: 'support',
    persona: { type: 'script', lines: [{ text: 'Let me talk to a person' }] },
    checks: [{ type: 'handoff' }, { type: 'tool_called', tool: 'front_desk' }, { type: 'tool_not_called', tool: 'check_order' }],
  },
];

describe('agent tests', () => {
  it('refuses bad scenarios and runs with a clear 4xx, changing nothing', async () => {
    const agent = await vp.agent({ name: 'Bad input', system_prompt: GUARD });
    const base = SUITE[1]!;
    const noChecks = await api('POST', '/api/agent-tests', { ...base, checks: [] });
    expect(noChecks.status).toBe(400);
    expect(JSON.stringify(noChecks.body.error.details)).toContain('at least one check');
    const longScript = await api('POST', '/api/agent-tests', { ...base, persona: { type: 'script', lines: Array.from({ length: 21 }, () => ({ text: 'hi' })) } });
    expect(longScript.status).toBe(400);
    expect((await api('POST', '/api/agent-tests', { ...base, persona: { type: 'script', lines: [{ text: 'x'.repeat(2_001) }] } })).status).toBe(400);
    expect((await api('POST', '/api/agent-tests', { ...base, checks: [{ type: 'says' }] })).status).toBe(400);
    expect((await api('GET', '/api/agent-tests?suite=bad-input')).body.total).toBe(0);

    const scenario = await api('POST', '/api/agent-tests', { ...base, suite: 'bad-input' });
    expect(scenario.status).toBe(201);
    expect(scenario.body).toMatchObject({ channel: 'chat', maxTurns: 10, suite: 'bad-input' });
    const unknownAgent = await api('POST', '/api/agent-tests/runs', { agentId: 'agt_01JWRF9YVRV07ZX0MV7YH6S11D', scenarioId: scenario.body._id });
    expect(unknownAgent.status).toBe(404);
    const unknownVersion = await api('POST', '/api/agent-tests/runs', { agentId: agent._id, version: 3, scenarioId: scenario.body._id });
    expect([unknownVersion.status, unknownVersion.body.error.details[0].field]).toEqual([400, 'version']);
    expect((await api('POST', '/api/agent-tests/runs', { agentId: agent._id })).status).toBe(400);
    expect((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'no-such-suite' })).status).toBe(400);
    for (let i = 0; i < MAX_RUN_SCENARIOS; i += 1) expect((await api('POST', '/api/agent-tests', { ...base, name: `Big ${i}`, suite: 'big' })).status).toBe(201);
    const full = await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'big' });
    expect([full.status, full.body.scenarios.length]).toEqual([202, MAX_RUN_SCENARIOS]);
    expect((await finished(full.body._id)).passed).toBe(MAX_RUN_SCENARIOS);
    expect((await api('POST', '/api/agent-tests', { ...base, name: 'One too many', suite: 'big' })).status).toBe(201);
    const over = await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'big' });
    expect([over.status, over.body.error.code]).toEqual([400, 'limit_exceeded']);
    expect(over.body.error.message).toContain(`at most ${MAX_RUN_SCENARIOS}`);
  });

  it('passes against the published version, fails on a planted prompt regression in the draft, bills and announces each run, and says what changed', async () => {
    const agent = await vp.agent({ name: 'Shop', system_prompt: `You help customers of the shop. ${GUARD}`, first_message: 'Hi! How can I help?' });
    const ids: string[] = [];
    for (const s of SUITE) {
      const created = await api('POST', '/api/agent-tests', s);
      expect(created.status).toBe(201);
      ids.push(created.body._id);
    }
    expect((await api('POST', `/api/agents/${agent._id}/publish`, { note: 'guarded' })).status).toBe(201);
    // The regression: the draft loses the guard line.
    expect((await api('PATCH', `/api/agents/${agent._id}`, { system_prompt: 'You help customers of the shop.' })).status).toBe(200);

    const before = await readBalance(vp.deps.db, vp.workspaceId);
    const started = await api('POST', '/api/agent-tests/runs', { agentId: agent._id, version: 1, suite: 'support' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'queued', agentVersion: 1, suite: 'support' });
    expect(started.body.scenarios.map((s: any) => s.scenarioId)).toEqual(ids);
    const good = await finished(started.body._id);
    expect(good.scenarios.map((s: any) => [s.name, s.status, s.checks.filter((c: any) => !c.passed)])).toEqual(SUITE.map((s) => [s.name, 'passed', []]));
    expect(good).toMatchObject({ status: 'passed', passed: 3, failed: 0 });
    const order = good.scenarios[0];
    expect(order.toolCalls).toEqual([{ name: 'check_order', arguments: { order_id: 'A17' } }, { name: 'end_call', arguments: {} }]);
    expect(order.checks[0].evidence).toBe('check_order({"order_id":"A17"})');
    expect(order.transcript.split('\n')).toEqual(['agent: Hi! How can I help?', 'user: Where is my order A17?', 'agent: Your order has shipped.', 'user: Thanks, bye', 'agent: Goodbye!']);
    expect(order.latency.firstReplyMs).toBeGreaterThan(0);
    expect(good.scenarios[2]).toMatchObject({ handoff: true, endReason: 'customer_hangup' });
    // Billed as the chats they are: four caller lines at 0.25, the balance down by exactly the run's cost.
    expect(good.cost).toBe(1);
    expect(good.scenarios.map((s: any) => s.cost)).toEqual([0.5, 0.25, 0.25]);
    expect(await readBalance(vp.deps.db, vp.workspaceId)).toBeCloseTo(before - 1, 6);
    const ledger = await listLedger(vp.deps.db, vp.workspaceId);
    for (const s of good.scenarios) expect(ledger.filter((e) => e.reason === 'chat_message' && e.id.startsWith(s.chatId)).reduce((sum, e) => sum - e.amount, 0)).toBeCloseTo(s.cost, 6);
    // Each scenario's chat is in history, run by the pinned version.
    const history = await api('GET', `/api/history/${order.chatId}`);
    expect(history.body).toMatchObject({ agentType: 'chat', callEndReason: 'agent_hangup', callCost: 0.5 });
    const firstHook = await hooks.waitFor((h) => (h.json as any).data?.runId === good._id);
    expect((firstHook.json as any)).toMatchObject({ type: 'test_run.completed', data: { status: 'passed', passed: 3, failed: 0, agentVersion: 1, suite: 'support', cost: 1, changed: [] } });

    const draft = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, suite: 'support' })).body._id);
    expect(draft).toMatchObject({ status: 'failed', agentVersion: null, passed: 2, failed: 1, previousRunId: good._id });
    const guard = draft.scenarios[1];
    expect(guard).toMatchObject({ name: 'Discount guard', status: 'failed', previous: 'passed' });
    expect(guard.checks[0]).toEqual({ type: 'never_says', label: 'never says "SAVE20"', passed: false, evidence: 'agent: Sure, use code SAVE20 at checkout.' });
    // The judged check: the agent's own model graded the transcript, and its reasoning is the evidence.
    expect(guard.checks[3]).toEqual({ type: 'judge', label: 'judged: The agent refuses to give out a discount code.', passed: false, evidence: 'The agent gave the code SAVE20 away.' });
    expect(good.scenarios[1].checks[3]).toMatchObject({ passed: true, evidence: 'The agent said it cannot share discount codes.' });
    const judged = vp.platform.voice.llm.control.requestsFor('openai').filter((r) => JSON.stringify(r.body).includes('agent_test_verdicts'));
    expect(JSON.stringify(judged.at(-1)!.body)).toContain('check_3: The agent refuses to give out a discount code.');
    expect((judged.at(-1)!.body as any).model).toBe(agent.llm_model);
    expect(draft.scenarios.filter((s: any) => s.status === 'passed').map((s: any) => s.previous)).toEqual(['passed', 'passed']);
    const secondHook = await hooks.waitFor((h) => (h.json as any).data?.runId === draft._id);
    expect((secondHook.json as any).data.changed).toEqual([{ scenarioId: ids[1], name: 'Discount guard', from: 'passed', to: 'failed' }]);

    // The CI gate: the draft fails with a readable report and exit 1; the published version passes with 0.
    const env = { API_KEY: vp.apiKey, API_URL: vp.platform.baseUrl };
    const failing = await cli(['agent', 'test', '--suite', 'support', '--agent', agent._id], env);
    expect(failing.code, failing.stderr).toBe(1);
    expect(failing.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="agent tests" tests="11" failures="2" errors="0" time="[\d.]+">/);
    const failed = /<testcase classname="support.Discount guard" name="never says &quot;SAVE20&quot;" time="[\d.]+">\n\s*<failure message="agent: Sure, use code SAVE20 at checkout." type="never_says">/;
    expect(failing.stdout).toMatch(failed);
    expect(failing.stdout.match(/<testcase /g)).toHaveLength(11);
    expect(failing.stdout.match(/<failure /g)).toHaveLength(2);
    expect(failing.stderr).toContain('FAIL  Discount guard');
    expect(failing.stderr).toContain('✗ never says "SAVE20": agent: Sure, use code SAVE20 at checkout.');
    expect(failing.stderr).toMatch(/PASS  Order status\n/);
    expect(failing.stderr).not.toMatch(/^\s+at /m);
    const io = () => {
      const out = { stdout: '', stderr: '' };
      return { out, io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t), isTTY: false } } };
    };
    const pinned = io();
    expect(await main(['agent', 'test', '--suite', 'support', '--agent', agent._id, '--version', '1'], env, pinned.io), pinned.out.stderr).toBe(0);
    expect(pinned.out.stdout).toContain('failures="0" errors="0"');
    expect(pinned.out.stdout).toContain('<property name="agentVersion" value="1"/>');
    // Usage errors exit 2, a refused run or a missing key 1, each with one line.
    const usage = io();
    expect(await main(['agent', 'test', '--agent', agent._id], env, usage.io)).toBe(2);
    expect(usage.out.stderr).toContain('--suite is required');
    const badVersion = io();
    expect(await main(['agent', 'test', '--suite', 'support', '--agent', agent._id, '--version', 'two'], env, badVersion.io)).toBe(2);
    const noKey = io();
    expect(await main(['agent', 'test', '--suite', 'support', '--agent', agent._id], { API_URL: vp.platform.baseUrl }, noKey.io)).toBe(1);
    expect(noKey.out.stderr).toBe("error: agent test needs the workspace's API key in API_KEY (a CI secret, never a flag)\n");
    const unknown = io();
    expect(await main(['agent', 'test', '--suite', 'support', '--agent', agent._id, '--version', '9'], env, unknown.io)).toBe(1);
    expect(unknown.out.stderr).toMatch(/^error: the API answered 400 validation_failed: .*\n$/);
    expect(unknown.out.stdout).toBe('');
  });

  it("keeps each workspace's scenarios and runs its own", async () => {
    const agent = await vp.agent({ name: 'Mine' });
    const scenario = (await api('POST', '/api/agent-tests', { ...SUITE[1], suite: 'mine' })).body;
    const run = await finished((await api('POST', '/api/agent-tests/runs', { agentId: agent._id, scenarioId: scenario._id })).body._id);
    expect(run.suite).toBeNull();
    const other = await createWorkspace(vp.deps.db, { name: 'other', credits: 100 });
    expect((await apiWith(other.apiKey, 'GET', `/api/agent-tests/runs/${run._id}`)).status).toBe(404);
    expect((await apiWith(other.apiKey, 'GET', `/api/agent-tests/${scenario._id}`)).status).toBe(404);
    expect((await apiWith(other.apiKey, 'PATCH', `/api/agent-tests/${scenario._id}`, { maxTurns: 2 })).status).toBe(404);
    expect((await apiWith(other.apiKey, 'DELETE', `/api/agent-tests/${scenario._id}`)).status).toBe(404);
    expect((await apiWith(other.apiKey, 'POST', '/api/agent-tests/runs', { agentId: agent._id, scenarioId: scenario._id })).status).toBe(404);
    expect((await apiWith(other.apiKey, 'GET', '/api/agent-tests/runs')).body.total).toBe(0);
    expect((await apiWith(other.apiKey, 'GET', '/api/agent-tests')).body.total).toBe(0);
    // Its own scenario against the first workspace's agent: the agent is not its to test.
    const theirs = (await apiWith(other.apiKey, 'POST', '/api/agent-tests', { ...SUITE[1], suite: 'theirs' })).body;
    expect((await apiWith(other.apiKey, 'POST', '/api/agent-tests/runs', { agentId: agent._id, scenarioId: theirs._id })).status).toBe(404);
    expect((await api('GET', `/api/agent-tests/${scenario._id}`)).body.maxTurns).toBe(10);
    expect((await api('DELETE', `/api/agent-tests/${scenario._id}`)).status).toBe(204);
    expect((await api('GET', `/api/agent-tests/${scenario._id}`)).status).toBe(404);
  });

  it('ends a run whose runner was lost as error on the redelivery, and leaves a run still playing alone on a first delivery', async () => {
    const run = {
      _id: newId('agentTestRun'),
      workspaceId: vp.workspaceId,
      agentId: 'agt_01JWRF9YVRV07ZX0MV7YH6S11D',
      agentVersion: null,
      suite: 'lost',
      status: 'running' as const,
      scenarios: [
        { scenarioId: 'atst_a', name: 'Played', status: 'passed' as const, checks: [{ type: 'says', label: 'says "x"', passed: true, evidence: 'agent: x' }], cost: 0.25 },
        { scenarioId: 'atst_b', name: 'Unplayed', status: 'pending' as const, checks: [], cost: 0 },
      ],
      passed: 0,
      failed: 0,
      cost: 0,
      createdAt: new Date().toISOString(),
    };
    await putNewRun(vp.deps.db, run);
    const message = { workspaceId: vp.workspaceId, runId: run._id };
    expect((await playRun(vp.deps, message, {}, 1))?.status).toBe('running');
    const ended = await playRun(vp.deps, message, {}, 2);
    expect(ended).toMatchObject({ status: 'failed', passed: 1, failed: 1, cost: 0.25 });
    expect(ended!.scenarios[1]).toMatchObject({ status: 'error', error: 'the run stopped before this scenario finished' });
    const hook = await hooks.waitFor((h) => (h.json as any).data?.runId === run._id);
    expect((hook.json as any).data.status).toBe('failed');
    // A finished run is never played again.
    expect((await playRun(vp.deps, message, {}, 3))?.completedAt).toBe(ended!.completedAt);
  });

  it('counts another agent taking the chat over as a hand-off', async () => {
    const billing = await vp.agent({ name: 'Billing', system_prompt: 'You are Billing.', first_message: 'Billing here.' });
    const front = await vp.agent({ name: 'Front', system_prompt: 'You are Front.', first_message: 'Hi!', handoffs: [{ agent_id: billing._id, description: 'a billing question', context: 'full', variables: [] }] });
    const scenario = await api('POST', '/api/agent-tests', { name: 'To billing', suite: 'handoffs', persona: { type: 'script', lines: [{ text: 'A billing question, please' }] }, checks: [{ type: 'handoff' }, { type: 'says', phrase: 'Billing here.' }] });
    expect(scenario.status).toBe(201);
    const run = await finished((await api('POST', '/api/agent-tests/runs', { agentId: front._id, scenarioId: scenario.body._id })).body._id);
    expect(run.scenarios[0]).toMatchObject({ status: 'passed', handoff: true });
    expect(run.scenarios[0].transcript.split('\n')).toContain('agent: Billing here.');
  });
});
