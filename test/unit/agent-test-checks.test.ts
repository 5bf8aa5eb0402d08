/**
 * Invariant: each deterministic agent-test check passes exactly when the conversation shows what it names,
 * and fails otherwise with the evidence that decided it (docs/agent-tests.md); the scenario schema refuses a
 * scenario without checks or over its limits; the JUnit report counts every check once, escapes what the
 * agent said, and carries each failure's evidence.
 */
import { describe, expect, it } from 'vitest';
import { gradeCheck, judgedAnalysis, judgementsOf, ScenarioCreate, TestCheck, type Played, type TestRun } from '../../lib/domain/agent-test.js';
import { AgentAnalysis } from '../../lib/domain/analysis.js';
import { junitReport, summary } from '../../lib/local/cli/agent-test-cli.js';

const played: Played = {
  agentLines: ['Hello! How can I help?', 'Your order   HAS shipped.', 'Goodbye!'],
  toolCalls: [{ name: 'check_order', arguments: { order_id: 'A17', rush: false } }, { name: 'end_call', arguments: {} }],
  handoff: false,
  endReason: 'agent_hangup',
  firstReplyMs: 812.4,
};
const grade = (check: unknown, p: Played = played) => gradeCheck(TestCheck.parse(check), p);

describe('deterministic checks', () => {
  it('tool_called matches the name and every given argument, and says what was called otherwise', () => {
    expect(grade({ type: 'tool_called', tool: 'check_order', arguments: { order_id: 'A17' } })).toEqual({ type: 'tool_called', label: 'calls check_order with {"order_id":"A17"}', passed: true, evidence: 'check_order({"order_id":"A17","rush":false})' });
    expect(grade({ type: 'tool_called', tool: 'check_order', arguments: { order_id: 'A17', rush: false } }).passed).toBe(true);
    expect(grade({ type: 'tool_called', tool: 'check_order', arguments: { order_id: 'B2' } })).toMatchObject({ passed: false, evidence: 'called with {"order_id":"A17","rush":false}' });
    expect(grade({ type: 'tool_called', tool: 'check_order', arguments: { order_id: 17 } }).passed).toBe(false);
    expect(grade({ type: 'tool_called', tool: 'front_desk' })).toMatchObject({ passed: false, evidence: 'tools called: check_order, end_call' });
    expect(grade({ type: 'tool_called', tool: 'front_desk' }, { ...played, toolCalls: [] })).toMatchObject({ passed: false, evidence: 'no tool was called' });
  });

  it('tool_not_called, handoff and end_reason', () => {
    expect(grade({ type: 'tool_not_called', tool: 'front_desk' }).passed).toBe(true);
    expect(grade({ type: 'tool_not_called', tool: 'end_call' })).toMatchObject({ passed: false, evidence: 'end_call({})' });
    expect(grade({ type: 'handoff' })).toMatchObject({ passed: false, label: 'hands off to a person', evidence: 'no hand-off' });
    expect(grade({ type: 'handoff' }, { ...played, handoff: true }).passed).toBe(true);
    expect(grade({ type: 'handoff', expected: false }).passed).toBe(true);
    expect(grade({ type: 'handoff', expected: false }, { ...played, handoff: true }).passed).toBe(false);
    expect(grade({ type: 'end_reason', reason: 'agent_hangup' })).toMatchObject({ passed: true, evidence: 'ended: agent_hangup' });
    expect(grade({ type: 'end_reason', reason: 'customer_hangup' }).passed).toBe(false);
  });

  it('says and never_says read the agent lines, case and spacing ignored', () => {
    expect(grade({ type: 'says', phrase: 'has Shipped' })).toMatchObject({ passed: true, evidence: 'agent: Your order   HAS shipped.' });
    expect(grade({ type: 'says', phrase: 'refund' })).toMatchObject({ passed: false, evidence: 'no agent line says it' });
    expect(grade({ type: 'never_says', phrase: 'refund' }).passed).toBe(true);
    expect(grade({ type: 'never_says', phrase: 'goodbye' })).toMatchObject({ passed: false, evidence: 'agent: Goodbye!' });
  });

  it('first_reply_within compares the measured time, and fails when the agent never replied', () => {
    expect(grade({ type: 'first_reply_within', ms: 900 })).toMatchObject({ passed: true, evidence: 'first reply after 812 ms' });
    expect(grade({ type: 'first_reply_within', ms: 800 }).passed).toBe(false);
    expect(grade({ type: 'first_reply_within', ms: 800 }, { ...played, firstReplyMs: null })).toMatchObject({ passed: false, evidence: 'the agent never replied' });
  });

  it('a label given replaces the default one', () => {
    expect(grade({ type: 'says', phrase: 'shipped', label: 'Confirms shipping' }).label).toBe('Confirms shipping');
  });
});

describe('judged checks', () => {
  const checks = [TestCheck.parse({ type: 'says', phrase: 'hi' }), TestCheck.parse({ type: 'judge', rubric: 'Stays polite.' }), TestCheck.parse({ type: 'judge', rubric: 'Offers a callback.' })];
  it("ask the agent's model for one verdict per rubric beside the agent's own analysis, in a schema the analysis accepts", () => {
    expect(judgedAnalysis(undefined, [checks[0]!])).toBeUndefined();
    const own = { successEvaluation: { rubric: 'Booked', type: 'pass_fail' as const, passingScore: 7 }, structuredData: { schema: { type: 'object', properties: { booked: { type: 'boolean' } }, required: ['booked'] }, prompt: 'Was it booked?' } };
    const asked = judgedAnalysis(own, checks)!;
    expect(AgentAnalysis.safeParse(asked).success).toBe(true);
    expect(asked.successEvaluation).toEqual(own.successEvaluation);
    const schema = asked.structuredData!.schema as any;
    expect(Object.keys(schema.properties)).toEqual(['booked', 'agent_test_verdicts']);
    expect(schema.required).toEqual(['booked', 'agent_test_verdicts']);
    expect(Object.keys(schema.properties.agent_test_verdicts.properties)).toEqual(['check_1', 'check_2']);
    expect(asked.structuredData!.prompt).toBe('Was it booked?\nagent_test_verdicts: grade the agent against each rubric: check_1: Stays polite. | check_2: Offers a callback.');
  });

  it('read each verdict and its reasoning, and fail a check the judge did not answer', () => {
    const at = '2025-06-02T14:03:11.000Z';
    const j = judgementsOf(checks, { status: 'completed', data: { agent_test_verdicts: { check_1: { pass: true, reasoning: 'Polite throughout.' } } }, analyzedAt: at });
    expect([...j.entries()]).toEqual([[1, { pass: true, reasoning: 'Polite throughout.' }], [2, { error: 'the answer has no verdict for this rubric' }]]);
    expect(gradeCheck(checks[1]!, played, j.get(1))).toMatchObject({ passed: true, evidence: 'Polite throughout.' });
    expect(gradeCheck(checks[2]!, played, j.get(2))).toMatchObject({ passed: false, evidence: 'the judge failed: the answer has no verdict for this rubric' });
    expect(judgementsOf(checks, { status: 'failed', error: 'the model did not answer with JSON', analyzedAt: at }).get(1)).toEqual({ error: 'the model did not answer with JSON' });
    expect(judgementsOf(checks, undefined).get(2)).toEqual({ error: 'no analysis was recorded in time' });
    expect(gradeCheck(checks[1]!, played)).toMatchObject({ passed: false, evidence: 'the judge did not answer' });
  });
});

describe('the scenario schema', () => {
  const valid = { name: 'S', persona: { type: 'script', lines: [{ text: 'Hi' }] }, checks: [{ type: 'says', phrase: 'hello' }] };
  it('fills the defaults and refuses a scenario with no checks or over its limits', () => {
    expect(ScenarioCreate.parse(valid)).toMatchObject({ suite: 'default', channel: 'chat', maxTurns: 10, persona: { lines: [{ text: 'Hi', delayMs: 0 }] } });
    expect(ScenarioCreate.safeParse({ ...valid, checks: [] }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...valid, checks: Array.from({ length: 21 }, () => valid.checks[0]) }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...valid, persona: { type: 'script', lines: Array.from({ length: 21 }, () => ({ text: 'x' })) } }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...valid, channel: 'voice' }).success).toBe(true);
    expect(ScenarioCreate.safeParse({ ...valid, suite: 'has space' }).success).toBe(false);
    expect(ScenarioCreate.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });
});

describe('the JUnit report', () => {
  const run: TestRun = {
    _id: 'trun_01JWRG7N0R6P1QK4XB8D3MZ7TW',
    workspaceId: 'ws_1',
    agentId: 'agt_1',
    agentVersion: null,
    suite: 'support',
    status: 'failed',
    passed: 1,
    failed: 2,
    cost: 0.06,
    createdAt: '2025-06-02T14:03:11.000Z',
    scenarios: [
      { scenarioId: 'atst_1', name: 'Order', status: 'passed', cost: 0.02, wallMs: 1500, checks: [{ type: 'says', label: 'says "shipped"', passed: true, evidence: 'agent: shipped' }] },
      {
        scenarioId: 'atst_2',
        name: 'Guard <&>',
        status: 'failed',
        cost: 0.02,
        wallMs: 900,
        previous: 'passed',
        transcript: 'user: discount?\nagent: use "SAVE20" & <enjoy>',
        checks: [
          { type: 'never_says', label: 'never says "SAVE20"', passed: false, evidence: 'agent: use "SAVE20" & <enjoy>' },
          { type: 'end_reason', label: 'ends with customer_hangup', passed: true, evidence: 'ended: customer_hangup' },
        ],
      },
      { scenarioId: 'atst_3', name: 'Gone', status: 'error', cost: 0, checks: [], error: 'the scenario was deleted before it ran' },
    ],
  };

  it('has one case per check, failures with their evidence, errors for scenarios that did not play, and escapes everything', () => {
    const xml = junitReport(run);
    expect(xml.split('\n').slice(0, 2)).toEqual(['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="agent tests" tests="4" failures="1" errors="1" time="2.400">']);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testcase classname="support.Guard &lt;&amp;&gt;" name="never says &quot;SAVE20&quot;" time="0.900">');
    expect(xml).toContain('<failure message="agent: use &quot;SAVE20&quot; &amp; &lt;enjoy&gt;" type="never_says">');
    expect(xml).toContain('<system-out>user: discount?\nagent: use &quot;SAVE20&quot; &amp; &lt;enjoy&gt;</system-out>');
    expect(xml).toContain('<testcase classname="support.Gone" name="plays the scenario" time="0.000">\n      <error message="the scenario was deleted before it ran"/>');
    expect(xml).toContain('<property name="agentVersion" value="draft"/>');
    // Nothing unescaped from the conversation reaches the markup.
    expect(xml).not.toContain('<enjoy>');
  });

  it('summarises each scenario, what changed since the last run, and each failed check', () => {
    expect(summary(run).split('\n')).toEqual([
      'PASS  Order',
      'FAIL  Guard <&> (was passed)',
      '      ✗ never says "SAVE20": agent: use "SAVE20" & <enjoy>',
      'ERROR  Gone',
      '      the scenario was deleted before it ran',
      '1 passed, 2 failed; 0.06 credits; run trun_01JWRG7N0R6P1QK4XB8D3MZ7TW',
      '',
    ]);
  });
});
