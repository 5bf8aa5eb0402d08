import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import {
  MAX_RUN_SCENARIOS,
  MAX_SCENARIOS,
  type RunRequest,
  type Scenario,
  type ScenarioCreate,
  type ScenarioResult,
  type ScenarioUpdate,
  type TestRun,
} from '../domain/agent-test.js';
import { AppError, BadRequestError, ValidationError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Page } from '../domain/common.js';
import { activeRuns, deleteScenario, getRun, getScenario, listRuns, listScenarios, putNewRun, putNewScenario, saveScenario, suiteScenarios } from '../store/agent-tests.js';
import { countOf } from '../store/collection.js';
import type { PageRequest } from '../store/dynamo.js';
import { createAgentTestQueue, type AgentTestQueue } from '../store/queue.js';
import { agentToRunById } from './agent-runtime.js';
import { assertCanAffordChat } from './chats.js';
import { assertCanAffordCall } from './credits.js';
import { voiceScenarioIssues } from '../domain/agent-test-voice.js';

/**
 * Agent tests (docs/agent-tests.md): the scenarios' CRUD and the start of a run. The run itself is played
 * off the request path by the run queue's consumer (lib/services/agent-test-runner.ts).
 */

export interface AgentTestDeps extends Pick<Deps, 'db' | 'config' | 'secrets'> {
  readonly agentTests: AgentTestQueue;
}

const built = new WeakMap<Config, AgentTestQueue>();

/** The platform's dependencies with the run queue, built once per configuration (a cold start). */
export function agentTestDepsOf(deps: Pick<Deps, 'db' | 'config' | 'secrets'>): AgentTestDeps {
  let queue = built.get(deps.config);
  if (!queue) built.set(deps.config, (queue = createAgentTestQueue(deps.config)));
  return { db: deps.db, config: deps.config, secrets: deps.secrets, agentTests: queue };
}

export async function createScenario(deps: Pick<Deps, 'db'>, ws: string, body: ScenarioCreate, nowIso = new Date().toISOString()): Promise<Scenario> {
  if ((await countOf(deps.db, ws, 'agentTest')) >= MAX_SCENARIOS) {
    throw new AppError(400, 'limit_exceeded', `A workspace keeps at most ${MAX_SCENARIOS} agent tests; delete some first.`);
  }
  const { workspaceId: _ws, ...fields } = body;
  const issues = voiceScenarioIssues(fields);
  if (issues.length > 0) throw new ValidationError(issues);
  const scenario: Scenario = { _id: newId('agentTest'), workspaceId: ws, ...fields, createdAt: nowIso, updatedAt: nowIso };
  await putNewScenario(deps.db, scenario);
  return scenario;
}

export const scenarioPage = (deps: Pick<Deps, 'db'>, ws: string, req: PageRequest & { suite?: string | undefined }): Promise<Page<Scenario>> =>
  listScenarios(deps.db, ws, req, req.suite);

export const scenarioDetail = (deps: Pick<Deps, 'db'>, ws: string, id: string): Promise<Scenario> => getScenario(deps.db, ws, id);

export async function updateScenario(deps: Pick<Deps, 'db'>, ws: string, id: string, body: ScenarioUpdate, nowIso = new Date().toISOString()): Promise<Scenario> {
  const stored = await getScenario(deps.db, ws, id);
  const issues = voiceScenarioIssues({ ...stored, ...body });
  if (issues.length > 0) throw new ValidationError(issues);
  return saveScenario(deps.db, ws, id, { ...body, updatedAt: nowIso });
}

export const removeScenario = (deps: Pick<Deps, 'db'>, ws: string, id: string): Promise<void> => deleteScenario(deps.db, ws, id);

/**
 * Starts a run: the agent and version must exist (404 / 400), the scenarios too (one, or a suite of at most
 * MAX_RUN_SCENARIOS: 400 beyond), the workspace must afford a message per scenario (402) and have fewer than
 * AGENT_TEST_MAX_ACTIVE_RUNS runs under way (429). The run is stored `queued` and handed to the run queue.
 */
export async function startRun(deps: AgentTestDeps, ws: string, body: RunRequest, nowIso = new Date().toISOString()): Promise<TestRun> {
  const { agent } = await agentToRunById(deps.db, ws, body.agentId, body.version ?? 'draft', 'version');
  const scenarios = body.scenarioId ? [await getScenario(deps.db, ws, body.scenarioId)] : await suiteScenarios(deps.db, ws, body.suite!);
  if (scenarios.length === 0) throw new ValidationError([{ field: 'suite', message: `the suite ${body.suite} has no scenarios` }]);
  if (scenarios.length > MAX_RUN_SCENARIOS) {
    throw new BadRequestError(`A run plays at most ${MAX_RUN_SCENARIOS} scenarios; the suite ${body.suite} has ${scenarios.length}. Split it.`, [{ field: 'suite', message: `at most ${MAX_RUN_SCENARIOS} scenarios`, scenarios: scenarios.length }], 'limit_exceeded');
  }
  await assertCanAffordChat(deps, ws);
  // A voice scenario is a call: its first socket reserves a call's credits (docs/agent-tests.md, "Billing").
  if (scenarios.some((s) => s.channel === 'voice')) await assertCanAffordCall(deps, ws);
  const active = await activeRuns(deps.db, ws);
  if (active >= deps.config.AGENT_TEST_MAX_ACTIVE_RUNS) {
    throw new AppError(429, 'rate_limited', `The workspace has ${active} test runs under way (at most ${deps.config.AGENT_TEST_MAX_ACTIVE_RUNS}); start this one when one finishes.`);
  }
  const pending = (s: Scenario): ScenarioResult => ({ scenarioId: s._id, name: s.name, status: 'pending', checks: [], cost: 0 });
  const run: TestRun = {
    _id: newId('agentTestRun'),
    workspaceId: ws,
    agentId: agent._id,
    agentVersion: body.version ?? null,
    suite: body.suite ?? null,
    status: 'queued',
    scenarios: scenarios.map(pending),
    passed: 0,
    failed: 0,
    cost: 0,
    createdAt: nowIso,
  };
  await putNewRun(deps.db, run);
  await deps.agentTests.send({ workspaceId: ws, runId: run._id });
  return run;
}

export const runDetail = (deps: Pick<Deps, 'db'>, ws: string, id: string): Promise<TestRun> => getRun(deps.db, ws, id);
export const runPage = (deps: Pick<Deps, 'db'>, ws: string, req: PageRequest): Promise<Page<TestRun>> => listRuns(deps.db, ws, req);
