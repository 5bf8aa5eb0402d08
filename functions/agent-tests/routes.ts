import { defineRoute } from '../../lib/http/handler.js';
import { routeSwitch } from '../../lib/http/route-group.js';
import { AGENT_TESTS_ROUTES } from '../../lib/infra/routes/agent-tests.js';
import { agentTestDepsOf, createScenario, removeScenario, runDetail, runPage, scenarioDetail, scenarioPage, startRun, updateScenario } from '../../lib/services/agent-tests.js';

/** The agent-test routes (docs/agent-tests.md), one function: scenarios' CRUD and runs (starting one queues it). */
export const handler = routeSwitch(AGENT_TESTS_ROUTES, {
  startTestRun: defineRoute(AGENT_TESTS_ROUTES.startTestRun, ({ deps, workspaceId, body }) => startRun(agentTestDepsOf(deps), workspaceId, body)),
  listTestRuns: defineRoute(AGENT_TESTS_ROUTES.listTestRuns, ({ deps, workspaceId, query }) => runPage(deps, workspaceId, query)),
  getTestRun: defineRoute(AGENT_TESTS_ROUTES.getTestRun, ({ deps, workspaceId, params }) => runDetail(deps, workspaceId, params.id)),
  createAgentTest: defineRoute(AGENT_TESTS_ROUTES.createAgentTest, ({ deps, workspaceId, body }) => createScenario(deps, workspaceId, body)),
  listAgentTests: defineRoute(AGENT_TESTS_ROUTES.listAgentTests, ({ deps, workspaceId, query }) => scenarioPage(deps, workspaceId, query)),
  getAgentTest: defineRoute(AGENT_TESTS_ROUTES.getAgentTest, ({ deps, workspaceId, params }) => scenarioDetail(deps, workspaceId, params.id)),
  updateAgentTest: defineRoute(AGENT_TESTS_ROUTES.updateAgentTest, ({ deps, workspaceId, params, body }) => updateScenario(deps, workspaceId, params.id, body)),
  deleteAgentTest: defineRoute(AGENT_TESTS_ROUTES.deleteAgentTest, ({ deps, workspaceId, params }) => removeScenario(deps, workspaceId, params.id)),
});
