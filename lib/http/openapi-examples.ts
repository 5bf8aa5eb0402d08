import { ID_PREFIX } from '../domain/ids.js';
import { MASK } from '../domain/tool.js';
import { listTemplates } from '../domain/tool-templates.js';
import type { OperationId } from '../infra/routes.js';

/**
 * Examples for the OpenAPI document, per operation: what the reference page pre-fills in each try-out and
 * shows as each answer. Kept here, not in the domain schemas, so the domain stays free of documentation;
 * test/unit/openapi.test.ts parses every request example with its route's body schema and every response
 * example with its response schema, and test/connected/docs.examples.test.ts sends each request example to a
 * running platform, so an example that no longer works fails a test.
 *
 * The values are realistic on purpose: E.164 numbers (the +1 415 555-01xx numbers are the fictional range
 * the local Twilio stand-in sells), ISO 8601 UTC timestamps, ids with their entity's prefix (lib/domain/ids.ts),
 * providers and voices that exist.
 */

/** An id of the given kind: its prefix and a ULID of a fixed moment (examples must not change per build). */
const id = (kind: keyof typeof ID_PREFIX, ulid: string) => `${ID_PREFIX[kind]}_${ulid}`;

export const EXAMPLE_IDS = {
  workspace: id('workspace', '01JWRF848R3JVSZ7EBQE8EMWFG'),
  agent: id('agent', '01JWRF9YVRV07ZX0MV7YH6S11D'),
  tool: id('tool', '01JWRFBSERD1BS3W9VV6RZM94Y'),
  contact: id('contact', '01JWRFDM1R9CFJ88P7TD5FBWNC'),
  phoneNumber: id('phoneNumber', '01JWRFFEMRDV3APXSJENM3G73Y'),
  call: id('call', '01JWRFH97RNSQ4B7JD31A2QE39'),
  meeting: id('call', '01JWRFK3TRZXKY0WVNX2WE4XSF'),
  chat: id('call', '01JWRFM8Q2D7XK4TNV9B3C6YHZ'),
  webhookEndpoint: id('webhookEndpoint', '01JWRFN6ERB2Q5TV3C8XW0H7JD'),
  event: id('event', '01JWRFQ0ZR6M4KQ8YB2D9NWS5E'),
  delivery: id('delivery', '01JWRFRVJR3H7XGA5P1QK8ZC6M'),
  apiKey: id('apiKey', '01JWRFTPNR8Q1B6ZK4XD3M2V7H'),
  invitation: id('invitation', '01JWRFWH8R5C2N9TQ7EJ4K6B3A'),
  secondWorkspace: id('workspace', '01JWRFYC3RH4V8P2MX6QD9N1TE'),
  campaign: id('campaign', '01JWRFTPKR8D2MZ6XQ4VN7HB3C'),
  contact2: id('contact', '01JWRFWH5R1K9TB3YD6QZ2MC8P'),
} as const;

/** A chat session, as `POST /api/chats` and `POST /widget/chat` answer it. */
const chatStarted = {
  chatId: EXAMPLE_IDS.chat,
  agentName: 'Ava',
  chatUrl: 'wss://stream.example.com/web-chat',
  credential: 'wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
  expiresAt: '2026-11-23T16:10:00.000Z',
};

const WS = EXAMPLE_IDS.workspace;
const CREATED = '2025-06-02T14:03:11.000Z';
const UPDATED = '2025-06-02T15:20:45.000Z';

/** The callee of the examples; +1 415 555-2671 is the number docs/api.md uses too. */
const CALLEE = '+14155552671';
/** A number the local Twilio stand-in sells (US +1 <area> 555-01xx). */
const BOUGHT = '+14155550123';
/** A number of the customer's own Twilio account, imported with its credentials (BYOT). */
const IMPORTED = '+14155550142';
const ACCOUNT_SID = 'AC3f9c2a71d4e85b06a7c1e9d2b4f60a58';

/**
 * The example agent's call controls (docs/telephony.md): a message left after the beep, a ten-minute
 * limit, 0 on the keypad for the front desk, and warm transfers.
 */
const callControls = {
  voicemail_detection: 'detect_message_end',
  voicemail_action: 'leave_message',
  voicemail_message: 'Hi {{contactName}}, this is Bayview Dental about your appointment tomorrow. Please call us back. Thank you!',
  max_duration_seconds: 600,
  dtmf_shortcuts: { '0': { action: 'transfer', destination: IMPORTED, mode: 'warm' } },
  transfer_mode: 'warm',
};
/** The agent the examples create: one provider of each kind, with a voice that provider has. */
const agentBase = {
  name: 'Appointment reminder',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'elevenlabs',
  tts_voice_id: '21m00Tcm4TlvDq8ikWAM',
  stt_provider: 'deepgram',
  system_prompt: 'You call patients of Bayview Dental to confirm tomorrow\'s appointment. Be brief and friendly; offer to reschedule if they cannot come.',
  first_message: 'Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?',
  recording_enabled: true,
};
const agentCreate = { ...agentBase, ...callControls };
const { tts_voice_id: _voice, ...agentCommon } = agentBase;
const agentCreated = { _id: EXAMPLE_IDS.agent, ...agentCommon, workspaceId: WS, createdAt: CREATED };
const agentView = { ...agentCreated, tts_voice_id: agentBase.tts_voice_id, ambience_enabled: false, ...callControls, updatedAt: UPDATED };
const agentListItem = {
  _id: EXAMPLE_IDS.agent,
  name: agentCreate.name,
  llm_provider: agentCreate.llm_provider,
  llm_model: agentCreate.llm_model,
  tts_provider: agentCreate.tts_provider,
  stt_provider: agentCreate.stt_provider,
  workspaceId: WS,
  createdAt: CREATED,
};

const toolParameters = [{ name: 'order_id', description: 'The order number the caller reads out, e.g. 10023', required: true }];
const toolCreate = {
  name: 'check_order_status',
  type: 'http',
  description: 'Looks up the delivery status of an order by its number.',
  config: {
    method: 'GET',
    url: 'https://api.example.com/orders/{order_id}/status',
    headers: { Authorization: 'Bearer sk_test_51Hc2xV0a9Q7' },
  },
  parameters: toolParameters,
};
const toolCreated = {
  _id: EXAMPLE_IDS.tool,
  name: toolCreate.name,
  type: toolCreate.type,
  description: toolCreate.description,
  workspaceId: WS,
  createdAt: CREATED,
  config: { method: 'GET', url: toolCreate.config.url },
};
const toolListItem = { _id: EXAMPLE_IDS.tool, name: toolCreate.name, type: toolCreate.type, description: toolCreate.description, workspaceId: WS, createdAt: CREATED };
const toolView = {
  ...toolListItem,
  config: { method: 'GET', url: toolCreate.config.url, headers: { Authorization: MASK } },
  parameters: toolParameters,
  updatedAt: UPDATED,
};

const contactCreate = {
  contactName: 'Ada Lovelace',
  phoneNumber: CALLEE,
  region: 'US',
  externalFields: { company: 'Analytical Engines Ltd', plan: 'pro', seats: 12, vip: true },
};
const contactView = { _id: EXAMPLE_IDS.contact, ...contactCreate, workspaceId: WS, createdAt: CREATED };
const contactListItem = { _id: EXAMPLE_IDS.contact, contactName: contactCreate.contactName, phoneNumber: CALLEE, region: 'US', workspaceId: WS };

const historyListItem = {
  _id: EXAMPLE_IDS.call,
  agentType: 'voice',
  agentId: EXAMPLE_IDS.agent,
  fullName: 'Ada Lovelace',
  mobileNumber: CALLEE,
  callDuration: 95,
  callEndReason: 'customer_hangup',
  callSummary: 'Confirmed the appointment for 3 June at 10:30.',
  callCost: 1.5833,
  workspace_id: WS,
  createdAt: CREATED,
  // Present for agents with an `analysis` section (docs/webhooks.md, "Post-call analysis").
  analysis: {
    status: 'completed',
    success: { pass: true, reason: 'The patient confirmed the appointment.' },
    data: { appointment_confirmed: true, reschedule_requested: false },
    analyzedAt: '2025-06-02T14:04:49.000Z',
  },
};
const historyView = {
  ...historyListItem,
  callTranscript: 'agent: Hi, this is Bayview Dental calling about your appointment tomorrow. Is now a good time?\nuser: Yes, I will be there at 10:30.\nagent: Perfect, see you then. Goodbye!',
  // Where the recording is kept; GET /api/history/{id}/recording-url turns it into a download URL.
  callRecordingUrl: `s3://voice-agents-recordings/recordings/${WS}/${EXAMPLE_IDS.call}.wav`,
};

const webhookEndpointView = {
  _id: EXAMPLE_IDS.webhookEndpoint,
  url: 'https://crm.example.com/hooks/voice-agents',
  description: 'CRM: log every call and its outcome',
  eventTypes: ['call.ended', 'call.analyzed'],
  status: 'enabled',
  workspaceId: WS,
  createdAt: CREATED,
  updatedAt: UPDATED,
};
/** A workspace's own Deepgram key as the API shows it: the last four characters only (docs/provider-keys.md). */
const providerKeyView = { provider: 'deepgram', last4: '9a0f', createdAt: CREATED, updatedAt: UPDATED, lastTestedAt: UPDATED, lastTestResult: 'valid' };

/** A made-up secret in the Standard Webhooks form (`whsec_` + base64 of 32 bytes). */
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3qkqTMvdaMw=';
const webhookDelivery = {
  _id: EXAMPLE_IDS.delivery,
  endpointId: EXAMPLE_IDS.webhookEndpoint,
  eventId: EXAMPLE_IDS.event,
  eventType: 'call.ended',
  status: 'succeeded',
  attempts: [
    { at: '2025-06-02T14:04:47.120Z', status: 503, latencyMs: 212, responseExcerpt: '{"error":"maintenance"}' },
    { at: '2025-06-02T14:04:52.701Z', status: 200, latencyMs: 87, responseExcerpt: '{"ok":true}' },
  ],
  createdAt: '2025-06-02T14:04:47.090Z',
  updatedAt: '2025-06-02T14:04:52.788Z',
};

const phoneNumberView = {
  _id: EXAMPLE_IDS.phoneNumber,
  number: BOUGHT,
  status: 'active',
  workspaceId: WS,
  agentId: EXAMPLE_IDS.agent,
  createdAt: CREATED,
  updatedAt: UPDATED,
};

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

const page = (item: unknown) => ({ data: [item], total: 1, page: 1, limit: 10 });

export interface OperationExamples {
  /** The JSON request body, exactly as the try-out sends it (no workspaceId: the key decides it). */
  readonly request?: unknown;
  /** The success answer's body. */
  readonly response?: unknown;
  /**
   * Path and query parameter values the try-out pre-fills. Only for path ids and parameters whose value
   * does not narrow the answer surprisingly: optional filters stay empty.
   */
  readonly params?: Readonly<Record<string, string>>;
}

export const OPERATION_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createAgent: { request: agentCreate, response: agentCreated },
  listAgents: { response: page(agentListItem) },
  getAgent: { params: { id: EXAMPLE_IDS.agent }, response: agentView },
  updateAgent: {
    params: { id: EXAMPLE_IDS.agent },
    request: { first_message: 'Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.', ambience_enabled: true, interruption: { min_words: 3 }, turn_taking: { unfinished_wait_ms: 2500 } },
    response: { ...agentView, first_message: 'Hello from Bayview Dental! I am calling to confirm your appointment tomorrow.', ambience_enabled: true, interruption: { min_words: 3 }, turn_taking: { unfinished_wait_ms: 2500 } },
  },
  deleteAgent: { params: { id: EXAMPLE_IDS.agent } },

  createTool: { request: toolCreate, response: toolCreated },
  listTools: { response: { data: [toolListItem] } },
  // The catalogue itself is the example: what the page shows is what the route answers.
  listToolTemplates: { response: { data: listTemplates().slice(0, 2) } },
  getTool: { params: { id: EXAMPLE_IDS.tool }, response: toolView },
  updateTool: {
    params: { id: EXAMPLE_IDS.tool },
    // The masked header sent back keeps the stored secret; only the description changes.
    request: { description: 'Looks up the delivery status and expected date of an order.', config: { headers: { Authorization: MASK } } },
    response: { ...toolView, description: 'Looks up the delivery status and expected date of an order.' },
  },
  deleteTool: { params: { id: EXAMPLE_IDS.tool } },

  createContact: { request: contactCreate, response: contactView },
  listContacts: { response: page(contactListItem) },
  getContact: { params: { id: EXAMPLE_IDS.contact }, response: contactView },
  updateContact: {
    params: { id: EXAMPLE_IDS.contact },
    // A JSON merge patch: `vip: null` removes that field.
    request: { contactName: 'Ada King', externalFields: { plan: 'enterprise', vip: null } },
    response: { ...contactView, contactName: 'Ada King', externalFields: { company: 'Analytical Engines Ltd', plan: 'enterprise', seats: 12 } },
  },
  deleteContact: { params: { id: EXAMPLE_IDS.contact } },
  uploadContacts: {
    response: { imported: 2, skipped: 1, errors: [{ row: 4, column: 'phoneNumber', value: '555-0199', message: 'is not a valid phone number' }] },
  },

  listHistory: { response: page(historyListItem) },
  getHistory: { params: { id: EXAMPLE_IDS.call }, response: historyView },
  deleteHistory: { params: { id: EXAMPLE_IDS.call } },
  getRecordingUrl: {
    params: { id: EXAMPLE_IDS.call },
    response: {
      url: `https://voice-agents-recordings.s3.us-east-1.amazonaws.com/recordings/${WS}/${EXAMPLE_IDS.call}.wav?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=3b1f0c9e`,
      expiresAt: '2025-06-02T14:18:11.000Z',
    },
  },

  startPhoneCall: {
    request: { assistantId: EXAMPLE_IDS.agent, phoneNumber: CALLEE, phoneNumberId: EXAMPLE_IDS.phoneNumber, contactName: 'Ada Lovelace' },
    response: { call_id: EXAMPLE_IDS.call, status: 'initiated' },
  },
  startCall: {
    request: { assistantId: EXAMPLE_IDS.agent, phoneNumber: CALLEE, phoneNumberId: EXAMPLE_IDS.phoneNumber, contactName: 'Ada Lovelace' },
    response: { call_id: EXAMPLE_IDS.call, status: 'initiated' },
  },
  createMeetingLink: {
    request: { assistantId: EXAMPLE_IDS.agent, contactName: 'Ada Lovelace', phoneNumber: CALLEE },
    response: { call_id: EXAMPLE_IDS.meeting, room_url: `https://api.example.com/meeting/${EXAMPLE_IDS.meeting}?token=q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc` },
  },
  createChat: {
    request: { agentId: EXAMPLE_IDS.agent, contactName: 'Ada Lovelace' },
    response: chatStarted,
  },
  openMeeting: { params: { callId: EXAMPLE_IDS.meeting, token: 'q3ZJx0b8nq6Q2cT1vK9sWmYp4hR7uLdE5aFgN0oXyIc' } },
  joinMeeting: {
    params: { callId: EXAMPLE_IDS.meeting },
    response: {
      callId: EXAMPLE_IDS.meeting,
      agentName: 'Ava',
      streamUrl: 'wss://stream.example.com/web-stream',
      credential: 'wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
      expiresAt: '2026-11-23T15:20:00.000Z',
    },
  },
  meetingAsset: { params: { file: 'meeting.js' } },
  widgetLoader: {},
  startWidgetChat: {
    request: { apiKey: 'vak_widget_3Jb7Qm2xN9pL4sT8vW1yZ6cR0dF5gH', agentId: EXAMPLE_IDS.agent },
    response: chatStarted,
  },
  startWidgetSession: {
    request: { apiKey: 'vak_widget_3Jb7Qm2xN9pL4sT8vW1yZ6cR0dF5gH', agentId: EXAMPLE_IDS.agent },
    response: {
      callId: EXAMPLE_IDS.call,
      agentName: 'Ava',
      streamUrl: 'wss://stream.example.com/web-stream',
      credential: 'wss1.eyJjYWxsSWQiOiJjYWxsXzAxSldSRks.Qm9vb29vb29vb29vb29vb29vb29vb29vb28',
      expiresAt: '2026-11-23T15:20:00.000Z',
    },
  },

  createWebhookEndpoint: {
    request: { url: webhookEndpointView.url, description: webhookEndpointView.description, eventTypes: webhookEndpointView.eventTypes },
    response: { ...webhookEndpointView, updatedAt: CREATED, secret: WEBHOOK_SECRET },
  },
  listWebhookEndpoints: { response: page(webhookEndpointView) },
  getWebhookSettings: { response: { creditsLowThreshold: 20 } },
  updateWebhookSettings: { request: { creditsLowThreshold: 20 }, response: { creditsLowThreshold: 20 } },
  getWebhookEndpoint: { params: { id: EXAMPLE_IDS.webhookEndpoint }, response: webhookEndpointView },
  updateWebhookEndpoint: {
    params: { id: EXAMPLE_IDS.webhookEndpoint },
    request: { eventTypes: ['call.ended', 'call.analyzed', 'call.transfer'] },
    response: { ...webhookEndpointView, eventTypes: ['call.ended', 'call.analyzed', 'call.transfer'] },
  },
  deleteWebhookEndpoint: { params: { id: EXAMPLE_IDS.webhookEndpoint } },
  rotateWebhookSecret: {
    params: { id: EXAMPLE_IDS.webhookEndpoint },
    response: { secret: 'whsec_3q2+7wAAAAB0ZXN0LXNlY3JldC1yb3RhdGVkLWtleS0wMQ==', previousSecretExpiresAt: '2025-06-03T15:20:45.000Z' },
  },
  sendWebhookTest: { params: { id: EXAMPLE_IDS.webhookEndpoint }, response: { eventId: EXAMPLE_IDS.event, deliveryId: EXAMPLE_IDS.delivery } },
  replayWebhookEvents: {
    params: { id: EXAMPLE_IDS.webhookEndpoint },
    request: { since: '2025-06-02T00:00:00Z', until: '2025-06-02T23:59:59Z' },
    response: { replayed: 1, deliveryIds: [EXAMPLE_IDS.delivery], truncated: false },
  },
  listWebhookDeliveries: { params: { id: EXAMPLE_IDS.webhookEndpoint }, response: page(webhookDelivery) },

  listProviderKeys: { response: { data: [providerKeyView, { ...providerKeyView, provider: 'elevenlabs', last4: 'c41d' }] } },
  setProviderKey: {
    params: { provider: 'deepgram' },
    // A made-up key in Deepgram's shape (40 hex characters); a real one is never shown back.
    request: { apiKey: '3f1b9c0d2e7a48f5b6c1d09e8a7f2b4c5d6e9a0f' },
    response: { provider: 'deepgram', last4: '9a0f', createdAt: CREATED, updatedAt: CREATED },
  },
  testProviderKey: {
    params: { provider: 'deepgram' },
    response: { provider: 'deepgram', result: 'valid', vendorStatus: 200, message: 'deepgram accepted the key.', testedAt: UPDATED },
  },
  deleteProviderKey: { params: { provider: 'deepgram' } },

  searchPhoneNumbers: {
    params: { country: 'US', areaCode: '415' },
    response: {
      data: [
        {
          number: BOUGHT,
          friendlyName: '(415) 555-0123',
          locality: 'San Francisco',
          region: 'CA',
          postalCode: '94103',
          country: 'US',
          capabilities: { voice: true, sms: true, mms: true },
        },
      ],
    },
  },
  buyPhoneNumber: {
    request: { phoneNumber: BOUGHT },
    response: { _id: EXAMPLE_IDS.phoneNumber, number: BOUGHT, status: 'active', workspaceId: WS },
  },
  importPhoneNumber: {
    request: { phoneNumber: IMPORTED, telephonyAccountSid: ACCOUNT_SID, telephonyAuthToken: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b' },
    response: { _id: EXAMPLE_IDS.phoneNumber, number: IMPORTED, status: 'active', workspaceId: WS, type: 'byot' },
  },
  listPhoneNumbers: { response: page(phoneNumberView) },
  getPhoneNumber: { params: { id: EXAMPLE_IDS.phoneNumber }, response: phoneNumberView },
  updatePhoneNumber: { params: { id: EXAMPLE_IDS.phoneNumber }, request: { agentId: EXAMPLE_IDS.agent }, response: phoneNumberView },
  deletePhoneNumber: { params: { id: EXAMPLE_IDS.phoneNumber } },

  signUp: { request: { email: DASHBOARD_USER.email, password: 'Correct-horse-9', workspaceName: 'Bayview Dental' }, response: { confirmationRequired: true } },
  confirmSignUp: { request: { email: DASHBOARD_USER.email, code: '482913' } },
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

/** The example campaign: a week of reminders, two callers at once, weekday hours in each contact's zone. */
const campaignView = {
  _id: EXAMPLE_IDS.campaign,
  name: 'June appointment reminders',
  agentId: EXAMPLE_IDS.agent,
  phoneNumberIds: [EXAMPLE_IDS.phoneNumber],
  contacts: { contactIds: [EXAMPLE_IDS.contact] },
  schedule: { startAt: '2025-06-02T13:00:00.000Z', endAt: '2025-06-09T01:00:00.000Z' },
  callingWindow: { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
  concurrency: 2,
  retry: {
    no_answer: { retries: 2, delayMinutes: 60 },
    busy: { retries: 2, delayMinutes: 15 },
    voicemail: { retries: 1, delayMinutes: 240 },
    failed: { retries: 1, delayMinutes: 30 },
  },
  status: 'running',
  workspaceId: WS,
  createdAt: CREATED,
  updatedAt: UPDATED,
};
const campaignCounts = (answered: number, voicemail: number, busy: number, noAnswer: number) => ({ answered, voicemail, busy, no_answer: noAnswer, failed: 0 });
const campaignDetail = {
  ...campaignView,
  progress: {
    status: 'running',
    contacts: { total: 2, pending: 1, inFlight: 0, finished: 1, skipped: 0 },
    outcomes: campaignCounts(1, 0, 0, 0),
    attempts: campaignCounts(1, 0, 1, 0),
    nextAttempts: [{ contactId: EXAMPLE_IDS.contact2, at: '2025-06-02T15:35:45.000Z' }],
  },
};
const dncEntry = { phoneNumber: '+14155550188', source: 'api', reason: 'Asked by email not to be called', workspaceId: WS, createdAt: CREATED };

/** The campaign and do-not-call examples (docs/campaigns.md). */
export const CAMPAIGN_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createCampaign: {
    request: {
      name: campaignView.name,
      agentId: EXAMPLE_IDS.agent,
      phoneNumberIds: [EXAMPLE_IDS.phoneNumber],
      contacts: { contactIds: [EXAMPLE_IDS.contact] },
      callingWindow: { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      concurrency: 2,
      retry: { no_answer: { retries: 2, delayMinutes: 60 } },
    },
    response: {
      ...campaignDetail,
      status: 'draft',
      progress: { ...campaignDetail.progress, status: 'draft', contacts: { total: 1, pending: 1, inFlight: 0, finished: 0, skipped: 0 }, outcomes: campaignCounts(0, 0, 0, 0), attempts: campaignCounts(0, 0, 0, 0), nextAttempts: [{ contactId: EXAMPLE_IDS.contact, at: CREATED }] },
    },
  },
  listCampaigns: { response: page({ _id: EXAMPLE_IDS.campaign, name: campaignView.name, agentId: EXAMPLE_IDS.agent, status: 'running', workspaceId: WS, createdAt: CREATED }) },
  getCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: campaignDetail },
  listCampaignResults: {
    params: { id: EXAMPLE_IDS.campaign },
    response: page({ contactId: EXAMPLE_IDS.contact, contactName: 'Ada Lovelace', phoneNumber: CALLEE, state: 'done', attempts: 2, lastOutcome: 'answered', callIds: [id('call', '01JWRFYC3R5N8QW2HT7XK4BD9E'), EXAMPLE_IDS.call] }),
  },
  startCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'scheduled', progress: { ...campaignDetail.progress, status: 'scheduled' } } },
  pauseCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'paused', progress: { ...campaignDetail.progress, status: 'paused' } } },
  resumeCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'scheduled', progress: { ...campaignDetail.progress, status: 'scheduled' } } },
  cancelCampaign: { params: { id: EXAMPLE_IDS.campaign }, response: { ...campaignDetail, status: 'cancelled', progress: { ...campaignDetail.progress, status: 'cancelled', nextAttempts: [] } } },
  addDoNotCall: { request: { phoneNumber: dncEntry.phoneNumber, reason: dncEntry.reason }, response: dncEntry },
  listDoNotCall: { response: page(dncEntry) },
  uploadDoNotCall: { response: { added: 120, existing: 3, errors: [{ row: 7, value: '12345', message: 'not a phone number in E.164 form (or set defaultCountry)' }] } },
  getDoNotCall: { params: { number: dncEntry.phoneNumber }, response: dncEntry },
  deleteDoNotCall: { params: { number: dncEntry.phoneNumber } },
};
Object.assign(OPERATION_EXAMPLES, CAMPAIGN_EXAMPLES);

/** The meeting page's answers when a link cannot be used (text/html, not the JSON error body). */
const meetingHtml = (title: string, text: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
export const MEETING_PAGE_EXAMPLES = {
  404: meetingHtml('Link not found', 'This meeting link is not valid.'),
  410: meetingHtml('Link already used', 'This meeting link has already been opened. Ask for a new link.'),
} as const;
