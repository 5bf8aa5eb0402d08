/**
 * Invariant: every request example of the API reference works as pasted. For each POST/PUT/PATCH route with
 * a JSON body, the documented example, sent to a running platform with only the ids that must be the
 * caller's own replaced (workspace, agent, a handoff's destination agent, phone number, telephony account), gets the route's documented
 * success status and an answer of the documented shape; without credits the call-starting examples get
 * the documented 402.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lib/http/openapi.js';
import { OPERATION_EXAMPLES } from '../../lib/http/openapi-examples/index.js';
import { ROUTES, type OperationId, type RouteSpec } from '../../lib/infra/routes.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { findCall } from '../../lib/store/calls.js';
import { codeFor, DashboardBrowser, signedUpUser } from '../support/dashboard-api.js';

let t: TestPlatform;

beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(() => t?.stop());

/** Replaces, at any depth, the value of each named field (the ids that must be the caller's own). */
function substitute(value: unknown, ids: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, ids));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k in ids ? ids[k] : substitute(v, ids)]));
}

/** The JSON-body routes that change something: the try-outs this file must cover, every one of them. */
const writeRoutes = (Object.entries(ROUTES) as [OperationId, RouteSpec][]).filter(
  ([, r]) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.body !== undefined && r.bodyKind !== 'raw' && r.bodyKind !== 'none',
);

/**
 * How the dashboard's examples are sent: /auth/* by the example user's browser (the invitee's for accepting
 * the invitation, with the token the invitation answered); the user-only routes with the session key
 * signing in answered.
 */
function dashboardTryOut() {
  const user = new DashboardBrowser(t.baseUrl);
  let sessionKey = '';
  let invitationToken = '';
  return {
    async send(id: OperationId, route: RouteSpec, path: string, body: unknown, otherwise: () => ReturnType<TestPlatform['api']>) {
      if (id === 'acceptInvitation') {
        const invitee = await signedUpUser(t.baseUrl, (OPERATION_EXAMPLES.createInvitation!.request as { email: string }).email, 'Correct-horse-9');
        return invitee.browser.auth('accept-invitation', { token: invitationToken });
      }
      if (route.path.startsWith('/auth/')) {
        const res = await user.auth(route.path.slice('/auth/'.length), body);
        if (id === 'signIn') sessionKey = res.body.apiKey;
        return res;
      }
      if (!route.access) return otherwise();
      const res = await t.api(sessionKey, route.method, path, body);
      if (id === 'createInvitation') invitationToken = new URLSearchParams(new URL(res.body.invitation.link).hash.slice(1)).get('token')!;
      return res;
    },
  };
}

describe('the documented request examples', () => {
  it('each gets its documented success status and answer shape once the caller\'s ids are in', async () => {
    const ws = await t.workspace(100);
    const ids: Record<string, unknown> = { workspaceId: ws.workspaceId };
    const created: Partial<Record<OperationId, string>> = {};
    // BYOT: the example's number must be in the customer's own account at the provider.
    const importExample = OPERATION_EXAMPLES.importPhoneNumber!.request as { phoneNumber: string };
    const account = t.platform.twilio!.addAccount();
    t.platform.twilio!.addNumber(account.sid, importExample.phoneNumber);

    // Dependencies first: what later examples refer to is created by earlier ones.
    const order: OperationId[] = [
      'createAgent',
      'createTool',
      'createContact',
      'buyPhoneNumber',
      'importPhoneNumber',
      'updateAgent',
      'publishAgent',
      'restoreAgentVersion',
      'updateTool',
      'updateContact',
      'updatePhoneNumber',
      'startPhoneCall',
      'startCall',
      // A live call's commands, once the calls just placed are connected: steered on one, ended on the other.
      'sayOnCall',
      'addCallContext',
      'transferCall',
      'endCall',
      'createMeetingLink',
      'createChat',
      'createWebhookEndpoint',
      'updateWebhookEndpoint',
      'replayWebhookEvents',
      'updateWebhookSettings',
      'setProviderKey',
      'createCampaign',
      'addDoNotCall',
      'createKnowledgeBase',
      'createKnowledgeDocument',
      'queryKnowledgeBase',
      // A scenario of the example agent, then a run of it (played in the background by the run consumer).
      'createAgentTest',
      'updateAgentTest',
      'startTestRun',
      // The dashboard's: its user signs up with the example's address, which then acts with its session key.
      'signUp',
      'resendConfirmationCode',
      'confirmSignUp',
      'signIn',
      'refreshSession',
      'forgotPassword',
      'resetPassword',
      'createApiKey',
      'createUserWorkspace',
      'createInvitation',
      'acceptInvitation',
    ];
    // A new write route must be added to this order (with what it depends on), so its example is tried too.
    expect([...order].sort()).toEqual(writeRoutes.map(([id]) => id).sort());
    const pathId: Partial<Record<OperationId, () => string>> = {
      updateAgent: () => created.createAgent!,
      publishAgent: () => created.createAgent!,
      restoreAgentVersion: () => created.createAgent!,
      updateTool: () => created.createTool!,
      updateContact: () => created.createContact!,
      updatePhoneNumber: () => created.buyPhoneNumber!,
      updateWebhookEndpoint: () => created.createWebhookEndpoint!,
      replayWebhookEvents: () => created.createWebhookEndpoint!,
      createKnowledgeDocument: () => created.createKnowledgeBase!,
      queryKnowledgeBase: () => created.createKnowledgeBase!,
      sayOnCall: () => created.startPhoneCall!,
      addCallContext: () => created.startPhoneCall!,
      transferCall: () => created.startPhoneCall!,
      endCall: () => created.startCall!,
      updateAgentTest: () => created.createAgentTest!,
    };
    // The example calls' callee stays on the line (a menu nobody answers), so they are live for the commands.
    const callee = (OPERATION_EXAMPLES.startPhoneCall!.request as { phoneNumber: string }).phoneNumber;
    t.platform.callSimulator!.setRule(callee, { kind: 'ivr', prompt: 'Please hold.', menu: {} });
    const connected = async (callId: string) => {
      for (let i = 0; i < 600; i += 1) {
        if ((await findCall(t.deps.db, ws.workspaceId, callId))?.streamSid) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`call ${callId} never connected`);
    };
    const doc = buildOpenApiDocument() as any;
    const dashboard = dashboardTryOut();

    for (const id of order) {
      const route: RouteSpec = ROUTES[id];
      if (id === 'updateAgent') {
        ids.assistantId = ids.agentId = created.createAgent!;
        // The update's `handoffs` name another agent of the caller's workspace: one is made, and its id is
        // the one the example's `agent_id` stands for (the agent itself would be refused).
        const destination = await t.api(ws.apiKey, 'POST', '/api/agents', { ...substitute(OPERATION_EXAMPLES.createAgent!.request, ids) as object, name: 'Booking' });
        expect(destination.status, JSON.stringify(destination.body)).toBe(201);
        ids.agent_id = destination.body._id;
      }
      if (id === 'updatePhoneNumber') ids.phoneNumberId = created.buyPhoneNumber!;
      // A campaign names lists of the caller's records.
      if (id === 'createCampaign') Object.assign(ids, { phoneNumberIds: [created.buyPhoneNumber!], contactIds: [created.createContact!] });
      if (id === 'startTestRun') ids.scenarioId = created.createAgentTest!;
      if (id === 'importPhoneNumber') Object.assign(ids, { telephonyAccountSid: account.sid, telephonyAuthToken: account.authToken });
      const documented = doc.paths[route.path][route.method.toLowerCase()];
      const example = documented.requestBody.content['application/json'].example;
      const body = substitute(example, ids);
      // A provider-key route names its vendor: the documented one.
      const provider = (OPERATION_EXAMPLES[id]?.params as { provider?: string } | undefined)?.provider ?? '';
      const version = (OPERATION_EXAMPLES[id]?.params as { version?: string } | undefined)?.version ?? '';
      const path = route.path.replace('{id}', pathId[id]?.() ?? '').replace('{provider}', provider).replace('{version}', version);
      if (route.path.startsWith('/api/calls/{id}/')) await connected(pathId[id]!());
      if (id === 'confirmSignUp' || id === 'resetPassword') Object.assign(body as object, { code: await codeFor((body as { email: string }).email) });
      const res = await dashboard.send(id, route, path, body, () => t.api(ws.apiKey, route.method, path, body));
      expect(res.status, `${id}: ${JSON.stringify(res.body)}`).toBe(route.status);
      if (route.status === 204) continue;
      expect(route.response!.safeParse(res.body).success, id).toBe(true);
      const answer = documented.responses[String(route.status)].content['application/json'].example;
      // `standIns` is there only on simulated vendors (as here), never in a deployment the examples show; the
      // schema check above covers it.
      expect(Object.keys(res.body).filter((k) => k !== 'standIns').sort(), `${id} answers the documented fields`).toEqual(Object.keys(answer).sort());
      // The handoff the update example adds is stored with the caller's destination.
      if (id === 'updateAgent') expect(res.body.handoffs.map((h: { agent_id: string }) => h.agent_id)).toEqual([ids.agent_id]);
      if (typeof res.body._id === 'string') created[id] = res.body._id;
      if (typeof res.body.call_id === 'string') created[id] = res.body.call_id;
      delete ids.telephonyAccountSid;
      delete ids.telephonyAuthToken;
    }
  });

  it('the call-starting examples get the documented 402 from a workspace without credits', async () => {
    const rich = await t.workspace(100);
    const poor = await t.workspace(0);
    const doc = buildOpenApiDocument() as any;
    const documented402 = doc.components.responses.PaymentRequired.content['application/json'].example;
    const agent = await t.api(poor.apiKey, 'POST', '/api/agents', substitute(OPERATION_EXAMPLES.createAgent!.request, { workspaceId: poor.workspaceId }));
    // A number to call from, bought by the poor workspace too (buying costs no credits).
    const search = await t.api(rich.apiKey, 'GET', '/api/phone-numbers/available?country=US&areaCode=415');
    const number = await t.api(poor.apiKey, 'POST', '/api/phone-numbers/buy', { phoneNumber: search.body.data.at(-1).number, workspaceId: poor.workspaceId });
    expect([agent.status, number.status]).toEqual([201, 201]);
    const ids = { workspaceId: poor.workspaceId, assistantId: agent.body._id, phoneNumberId: number.body._id };
    for (const id of ['startPhoneCall', 'startCall', 'createMeetingLink'] as const) {
      const route = ROUTES[id];
      const res = await t.api(poor.apiKey, 'POST', route.path, substitute(OPERATION_EXAMPLES[id]!.request, ids));
      expect(res.status, id).toBe(402);
      expect(res.body.error.code).toBe(documented402.error.code);
      expect(res.body.error.details).toEqual({ required: documented402.error.details.required, available: 0 });
    }
  });
});
