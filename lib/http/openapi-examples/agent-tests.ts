import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, id, page, UPDATED, WS, type OperationExamples } from './shared.js';

/** The agent-test examples (docs/agent-tests.md): an order-status scenario and a run of its suite. */

const SCENARIO_ID = id('agentTest', '01JWRG5TAR3M8QK2XD6N9BZ4VC');
const RUN_ID = id('agentTestRun', '01JWRG7N0R6P1QK4XB8D3MZ7TW');

const scenarioCreate = {
  name: 'Order status by number',
  suite: 'orders',
  persona: {
    type: 'script',
    lines: [
      { text: 'Hi, where is my order A17?', delayMs: 400 },
      { text: 'Great, thanks. Bye!', delayMs: 500 },
    ],
  },
  maxTurns: 10,
  checks: [
    { type: 'tool_called', tool: 'check_order', arguments: { order_id: 'A17' } },
    { type: 'says', phrase: 'shipped' },
    { type: 'never_says', phrase: 'I am an AI' },
    { type: 'first_reply_within', ms: 3000 },
  ],
};

const scenario = { _id: SCENARIO_ID, workspaceId: WS, ...scenarioCreate, channel: 'chat', createdAt: CREATED, updatedAt: UPDATED };

const run = {
  _id: RUN_ID,
  workspaceId: WS,
  agentId: EXAMPLE_IDS.agent,
  agentVersion: 3,
  suite: 'orders',
  status: 'failed',
  scenarios: [
    {
      scenarioId: SCENARIO_ID,
      name: scenarioCreate.name,
      status: 'failed',
      chatId: EXAMPLE_IDS.chat,
      transcript: 'agent: Hello! How can I help?\nuser: Hi, where is my order A17?\nagent: Let me look that up. It is being packed.\nuser: Great, thanks. Bye!\nagent: Goodbye!',
      endReason: 'customer_hangup',
      toolCalls: [{ name: 'check_order', arguments: { order_id: 'A17' } }],
      handoff: false,
      checks: [
        { type: 'tool_called', label: 'calls check_order with {"order_id":"A17"}', passed: true, evidence: 'check_order({"order_id":"A17"})' },
        { type: 'says', label: 'says "shipped"', passed: false, evidence: 'no agent line says it' },
        { type: 'never_says', label: 'never says "I am an AI"', passed: true, evidence: 'no agent line says it' },
        { type: 'first_reply_within', label: 'first reply within 3000 ms', passed: true, evidence: 'first reply after 820 ms' },
      ],
      latency: { firstReplyMs: 820, replyMsMedian: 640, replyMsMax: 820 },
      cost: 0.04,
      wallMs: 2310,
      previous: 'passed',
    },
  ],
  passed: 0,
  failed: 1,
  cost: 0.04,
  previousRunId: id('agentTestRun', '01JWRG6B8R2N5QK7XD1M4BZ9TC'),
  createdAt: CREATED,
  startedAt: CREATED,
  completedAt: '2025-06-02T14:03:14.000Z',
};

/** A run as it is answered at its start: nothing played, nothing compared yet. */
const { previousRunId: _p, startedAt: _s, completedAt: _c, ...queued } = run;

export const AGENT_TEST_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createAgentTest: { request: scenarioCreate, response: scenario },
  listAgentTests: { response: page(scenario) },
  getAgentTest: { params: { id: SCENARIO_ID }, response: scenario },
  updateAgentTest: { params: { id: SCENARIO_ID }, request: { maxTurns: 6 }, response: { ...scenario, maxTurns: 6 } },
  deleteAgentTest: { params: { id: SCENARIO_ID } },
  startTestRun: {
    request: { agentId: EXAMPLE_IDS.agent, scenarioId: SCENARIO_ID },
    response: { ...queued, agentVersion: null, suite: null, status: 'queued', scenarios: [{ scenarioId: SCENARIO_ID, name: scenarioCreate.name, status: 'pending', checks: [], cost: 0 }], failed: 0, cost: 0 },
  },
  listTestRuns: { response: page(run) },
  getTestRun: { params: { id: RUN_ID }, response: run },
};
