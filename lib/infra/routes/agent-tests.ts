import * as z from 'zod';
import { RunRequest, Scenario, ScenarioCreate, ScenarioQuery, ScenarioUpdate, TestRun } from '../../domain/agent-test.js';
import { IdParams, pageEnvelope } from '../../domain/common.js';
import { listQuery, route, type RouteSpec } from '../route-spec.js';

/** The agent-test routes (docs/agent-tests.md), assembled into the one table by lib/infra/routes.ts. */
export const AGENT_TESTS_ROUTES = {
  // `runs` precedes `{id}`: the local server takes the first match, as API Gateway prefers static segments.
  startTestRun: route({ method: 'POST', path: '/api/agent-tests/runs', entry: 'functions/agent-tests/routes.ts', summary: "Run one scenario or a suite against an agent's draft or a published version; the run plays in the background (test_run.completed when it is over)", tag: 'Test runs', auth: true, body: RunRequest, errors: [402, 429], status: 202, response: TestRun }),
  listTestRuns: route({ method: 'GET', path: '/api/agent-tests/runs', entry: 'functions/agent-tests/routes.ts', summary: 'List test runs, newest first', tag: 'Test runs', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(TestRun) }),
  getTestRun: route({ method: 'GET', path: '/api/agent-tests/runs/{id}', entry: 'functions/agent-tests/routes.ts', summary: 'Get a test run: each scenario with its transcript, verdicts and evidence, latency, cost, and its status in the previous run of the suite', tag: 'Test runs', auth: true, params: IdParams, status: 200, response: TestRun }),
  createAgentTest: route({ method: 'POST', path: '/api/agent-tests', entry: 'functions/agent-tests/routes.ts', summary: 'Create a test scenario: a scripted caller, a turn limit and the checks its conversation must pass', tag: 'Agent tests', auth: true, body: ScenarioCreate, status: 201, response: Scenario }),
  listAgentTests: route({ method: 'GET', path: '/api/agent-tests', entry: 'functions/agent-tests/routes.ts', summary: 'List test scenarios, newest first (optionally one suite)', tag: 'Agent tests', auth: true, query: listQuery(ScenarioQuery), status: 200, response: pageEnvelope(Scenario) }),
  getAgentTest: route({ method: 'GET', path: '/api/agent-tests/{id}', entry: 'functions/agent-tests/routes.ts', summary: 'Get a test scenario', tag: 'Agent tests', auth: true, params: IdParams, status: 200, response: Scenario }),
  updateAgentTest: route({ method: 'PATCH', path: '/api/agent-tests/{id}', entry: 'functions/agent-tests/routes.ts', summary: 'Update a test scenario: the fields sent replace its own', tag: 'Agent tests', auth: true, params: IdParams, body: ScenarioUpdate, status: 200, response: Scenario }),
  deleteAgentTest: route({ method: 'DELETE', path: '/api/agent-tests/{id}', entry: 'functions/agent-tests/routes.ts', summary: 'Delete a test scenario (runs keep their results)', tag: 'Agent tests', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
} as const satisfies Record<string, RouteSpec>;
