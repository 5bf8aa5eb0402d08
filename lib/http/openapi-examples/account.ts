import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, UPDATED, WS, type OperationExamples } from './shared.js';

/** The dashboard examples' user (a Cognito subject is a UUID). */
const DASHBOARD_USER = { id: '6f1c2e84-93b7-4d5a-a0c8-2b1e7f94d3a6', email: 'ada@example.com' };
const SESSION_WORKSPACE = { id: WS, name: 'Bayview Dental', role: 'owner' };
const session = {
  apiKey: 'vas_Qm7T2wX9pL4cV8nB1rK6yH3sD5fG0jZaE2uI7oP9tRw',
  expiresAt: '2025-06-02T14:18:11.000Z',
  user: DASHBOARD_USER,
  workspace: SESSION_WORKSPACE,
  workspaces: [SESSION_WORKSPACE, { id: EXAMPLE_IDS.secondWorkspace, name: 'Bayview Orthodontics', role: 'member' }],
};
const keyView = {
  id: EXAMPLE_IDS.apiKey,
  name: 'Production server',
  scope: 'full',
  prefix: 'vak_3fA9xY',
  createdAt: CREATED,
  lastUsedAt: UPDATED,
};

/** Sign-up and sessions, API keys, members and invitations, workspaces and credits. */
export const ACCOUNT_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  signUp: { request: { email: DASHBOARD_USER.email, password: 'Correct-horse-9', workspaceName: 'Bayview Dental' }, response: { confirmationRequired: true } },
  confirmSignUp: { request: { email: DASHBOARD_USER.email, code: '482913' } },
  resendConfirmationCode: { request: { email: DASHBOARD_USER.email }, response: { message: 'If this address is waiting for confirmation, a new code is on its way.' } },
  signIn: { request: { email: DASHBOARD_USER.email, password: 'Correct-horse-9' }, response: session },
  // `{"workspaceId": "ws_…"}` switches workspace; the example shows a plain refresh (workspaceId stays out of request examples).
  refreshSession: { request: {}, response: session },
  forgotPassword: { request: { email: DASHBOARD_USER.email }, response: { message: 'If an account exists for this address, a reset code is on its way.' } },
  resetPassword: { request: { email: DASHBOARD_USER.email, code: '730165', password: 'Battery-staple-4' } },
  acceptInvitation: { request: { token: 'Hn4vR8kQ2mX7cT1bW9pL5sZ3dF6gJ0yAe8uK2oI4rVq' }, response: session },
  listApiKeys: {
    response: { data: [keyView, { ...keyView, id: EXAMPLE_IDS.apiKey.replace(/.$/, 'J'), name: 'Website widget', scope: 'widget', prefix: 'vak_Lm2Qw8', lastUsedAt: null, agentIds: [EXAMPLE_IDS.agent], origins: ['https://www.bayviewdental.example'] }] },
  },
  createApiKey: {
    request: { name: 'Production server', scope: 'full' },
    response: { key: { ...keyView, lastUsedAt: null }, value: 'vak_3fA9xYb7Kq2Lm8Nw4Rt6Vz1Cd5Fh0Jp9Sg3Xe7Ua2Wo' },
  },
  revokeApiKey: { params: { id: EXAMPLE_IDS.apiKey } },
  listMembers: {
    response: {
      data: [
        { userId: DASHBOARD_USER.id, email: DASHBOARD_USER.email, role: 'owner', joinedAt: CREATED },
        { userId: '0b9d4a27-5c1e-4f83-b6a2-8e7d3c1f5a90', email: 'grace@example.com', role: 'member', joinedAt: UPDATED },
      ],
    },
  },
  createInvitation: {
    request: { email: 'grace@example.com', role: 'member' },
    response: {
      invitation: {
        id: EXAMPLE_IDS.invitation,
        email: 'grace@example.com',
        role: 'member',
        link: 'https://api.example.com/dashboard/accept-invitation#token=Hn4vR8kQ2mX7cT1bW9pL5sZ3dF6gJ0yAe8uK2oI4rVq',
        expiresAt: '2025-06-09T14:03:11.000Z',
      },
    },
  },
  createUserWorkspace: { request: { name: 'Bayview Orthodontics' }, response: { workspace: { id: EXAMPLE_IDS.secondWorkspace, name: 'Bayview Orthodontics', role: 'owner' } } },
  getCredits: {
    response: {
      balance: 412.5,
      reserved: 10,
      usage: [
        { day: '2025-06-01', credits: 18.25, calls: 7 },
        { day: '2025-06-02', credits: 9.5, calls: 4 },
      ],
    },
  },
};
