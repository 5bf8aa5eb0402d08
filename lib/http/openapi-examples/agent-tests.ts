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

/** A scenario whose caller a model plays from instructions (docs/agent-tests.md, "Model personas"). */
const PERSONA_SCENARIO_ID = id('agentTest', '01JWRG5VB2K9QK3XD6N9BZ4VEX');
const personaScenario = {
  _id: PERSONA_SCENARIO_ID,
  workspaceId: WS,
  name: 'Refund, impatient caller',
  suite: 'orders',
  channel: 'chat',
  persona: {
    type: 'model',
    instructions: 'You are Sam. Order A17 arrived broken and you want your money back, not a replacement. You are short-tempered but polite. Once a refund is confirmed, thank the agent and hang up.',
    firstLine: 'Hi, my order A17 arrived broken.',
  },
  maxTurns: 8,
  checks: [
    { type: 'tool_called', tool: 'refund_order', arguments: { order_id: 'A17' } },
    { type: 'never_says', phrase: 'replacement is the only option' },
  ],
  createdAt: CREATED,
  updatedAt: UPDATED,
};

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
    {
      scenarioId: PERSONA_SCENARIO_ID,
      name: personaScenario.name,
      status: 'passed',
      chatId: id('call', '01JWRG8C4Q7N2XD5K9BZ3MT6VA'),
      transcript: 'agent: Hello! How can I help?\nuser: Hi, my order A17 arrived broken.\nagent: Sorry to hear that. A replacement or a refund?\nuser: A refund, please.\nagent: Done: the refund for A17 is on its way.\nuser: Thanks, bye.\nagent: Goodbye!',
      endReason: 'customer_hangup',
      toolCalls: [{ name: 'refund_order', arguments: { order_id: 'A17' } }],
      handoff: false,
      checks: [
        { type: 'tool_called', label: 'calls refund_order with {"order_id":"A17"}', passed: true, evidence: 'refund_order({"order_id":"A17"})' },
        { type: 'never_says', label: 'never says "replacement is the only option"', passed: true, evidence: 'no agent line says it' },
      ],
      latency: { firstReplyMs: 760, replyMsMedian: 700, replyMsMax: 910 },
      cost: 0.12,
      wallMs: 4120,
      persona: { provider: 'openai', model: 'gpt-4o-mini', lines: 3, inputTokens: 812, outputTokens: 16, cost: 0.06 },
      previous: 'passed',
    },
  ],
  passed: 1,
  failed: 1,
  cost: 0.16,
  previousRunId: id('agentTestRun', '01JWRG6B8R2N5QK7XD1M4BZ9TC'),
  createdAt: CREATED,
  startedAt: CREATED,
  completedAt: '2025-06-02T14:03:14.000Z',
};

/** A run as it is answered at its start: nothing played, nothing compared yet. */
const { previousRunId: _p, startedAt: _s, completedAt: _c, ...queued } = run;

export const AGENT_TEST_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createAgentTest: { request: scenarioCreate, response: scenario },
  listAgentTests: { response: { ...page(scenario), data: [scenario, personaScenario], total: 2 } },
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
