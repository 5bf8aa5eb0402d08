import * as z from 'zod';
import { AgentCreate, AgentCreated, AgentListItem, AgentUpdate, AgentView } from '../domain/agent.js';
import {
  CallStarted,
  MeetingLinkRequest,
  MeetingLinkResult,
  MeetingJoined,
  MeetingParams,
  MeetingQuery,
  PhoneCallRequest,
  RecordingUrl,
} from '../domain/call.js';
import { IdParams, PageQuery, pageEnvelope } from '../domain/common.js';
import { ContactCreate, ContactListItem, ContactListQuery, ContactUpdate, ContactView } from '../domain/contact.js';
import { ContactImportForm, ContactImportResult } from '../domain/contact-import/schema.js';
import { HistoryListItem, HistoryListQuery, HistoryView } from '../domain/history.js';
import {
  AvailableNumbersQuery,
  AvailableNumberView,
  PhoneNumberBought,
  PhoneNumberBuy,
  PhoneNumberImport,
  PhoneNumberImported,
  PhoneNumberUpdate,
  PhoneNumberView,
} from '../domain/phone-number.js';
import { ToolCreate, ToolCreated, ToolListItem, ToolUpdate, ToolView } from '../domain/tool.js';
import { ToolTemplateView } from '../domain/tool-templates.js';
import {
  DeliveryListQuery,
  WebhookDeliveryView,
  WebhookEndpointCreate,
  WebhookEndpointCreated,
  WebhookEndpointUpdate,
  WebhookEndpointView,
  WebhookReplay,
  WebhookReplayResult,
  WebhookSecretRotated,
  WebhookSettingsUpdate,
  WebhookSettingsView,
  WebhookTestResult,
} from '../domain/webhook.js';
import { WidgetSessionRequest } from '../domain/widget.js';
import {
  AcceptInvitationBody,
  ConfirmSignUpBody,
  CreditsView,
  ForgotPasswordBody,
  InvitationCreate,
  InvitationCreated,
  KeyCreate,
  KeyCreated,
  KeyView,
  MemberView,
  RefreshBody,
  ResetPasswordBody,
  Session,
  SignInBody,
  SignUpBody,
  SignUpResult,
  WorkspaceCreate,
  WorkspaceCreated,
} from '../domain/dashboard.js';

/**
 * The one route table. The CDK stack makes one Lambda per entry from `entry`; the local server dispatches
 * to the very same module; the OpenAPI document is generated from the schemas here. They cannot disagree.
 */
export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway path syntax: `{id}` for a path parameter. */
  readonly path: string;
  /** The handler module, relative to the project root; it exports `handler`. */
  readonly entry: string;
  readonly summary: string;
  readonly tag: string;
  /** false for public routes (docs, webhooks verified by their own signature). */
  readonly auth: boolean;
  /** How the body is read: JSON (default), or handed over raw (multipart, form-encoded webhooks). */
  readonly bodyKind?: 'json' | 'raw' | 'none';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly status: number;
  /** The response schema; it also projects the result, so no field outside it can leak. */
  readonly response?: z.ZodType;
  /** For non-JSON responses, the content type the OpenAPI document names. */
  readonly produces?: string;
  /** For raw request bodies, the content type the OpenAPI document names (for example multipart/form-data). */
  readonly consumes?: string;
  /**
   * For raw request bodies, the fields of the form, shown by the OpenAPI document. The middleware does not
   * read raw bodies, so the route's handler parses and checks them itself.
   */
  readonly form?: z.ZodObject;
  /**
   * Error statuses the route's domain can answer beyond those the middleware stack implies (400, 401, 403,
   * 404, 413 follow from auth, params, query and body), for example 402 or 409; the OpenAPI document lists them.
   */
  readonly errors?: readonly number[];
  /** Public routes counted per source IP under this rate-limit policy (docs/api.md, "Rate limits"). */
  readonly ipLimit?: 'webhook' | 'meeting' | 'meeting-join' | 'widget' | 'account';
  /**
   * Dashboard routes (docs/dashboard.md): `user` needs a signed-in user's session key (an API key gets 403
   * `user_session_required`), `owner` also the owner role (a member gets 403 `owner_required`).
   */
  readonly access?: 'user' | 'owner';
  /**
   * Called from other sites' pages (the widget): every answer, errors included, carries
   * `Access-Control-Allow-Origin` naming the request's `Origin`, so the page can read why it was refused.
   * The handler checks that origin against the widget key before doing anything (docs/widget.md).
   */
  readonly cors?: boolean;
}

const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });
const listQuery = <S extends z.ZodRawShape>(extra: z.ZodObject<S>) =>
  WorkspaceQuery.extend(PageQuery.shape).extend(extra.shape);

const route = <const T extends RouteSpec>(spec: T): T => spec;

export const ROUTES = {
  createAgent: route({ method: 'POST', path: '/api/agents', entry: 'functions/agents/create.ts', summary: 'Create an agent', tag: 'Agents', auth: true, body: AgentCreate, status: 201, response: AgentCreated }),
  listAgents: route({ method: 'GET', path: '/api/agents', entry: 'functions/agents/list.ts', summary: 'List agents, newest first', tag: 'Agents', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(AgentListItem) }),
  getAgent: route({ method: 'GET', path: '/api/agents/{id}', entry: 'functions/agents/get.ts', summary: 'Get an agent', tag: 'Agents', auth: true, params: IdParams, status: 200, response: AgentView }),
  updateAgent: route({ method: 'PATCH', path: '/api/agents/{id}', entry: 'functions/agents/update.ts', summary: 'Update an agent (only the fields sent)', tag: 'Agents', auth: true, params: IdParams, body: AgentUpdate, status: 200, response: AgentView }),
  deleteAgent: route({ method: 'DELETE', path: '/api/agents/{id}', entry: 'functions/agents/delete.ts', summary: 'Delete an agent', tag: 'Agents', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),

  createTool: route({ method: 'POST', path: '/api/tools', entry: 'functions/tools/create.ts', summary: 'Create a tool', tag: 'Tools', auth: true, body: ToolCreate, status: 201, response: ToolCreated }),
  listTools: route({ method: 'GET', path: '/api/tools', entry: 'functions/tools/list.ts', summary: 'List tools (no pagination)', tag: 'Tools', auth: true, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(ToolListItem) }) }),
  listToolTemplates: route({ method: 'GET', path: '/api/tools/templates', entry: 'functions/tools/templates.ts', summary: 'List integration templates (method, URL, required headers, settings, parameters)', tag: 'Tools', auth: true, query: WorkspaceQuery, status: 200, response: z.object({ data: z.array(ToolTemplateView) }) }),
  getTool: route({ method: 'GET', path: '/api/tools/{id}', entry: 'functions/tools/get.ts', summary: 'Get a tool, header values masked', tag: 'Tools', auth: true, params: IdParams, status: 200, response: ToolView }),
  updateTool: route({ method: 'PUT', path: '/api/tools/{id}', entry: 'functions/tools/update.ts', summary: 'Update a tool (only the fields sent change)', tag: 'Tools', auth: true, params: IdParams, body: ToolUpdate, status: 200, response: ToolView }),
  deleteTool: route({ method: 'DELETE', path: '/api/tools/{id}', entry: 'functions/tools/delete.ts', summary: 'Delete a tool', tag: 'Tools', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),

  createContact: route({ method: 'POST', path: '/api/contacts', entry: 'functions/contacts/create.ts', summary: 'Create a contact', tag: 'Contacts', auth: true, body: ContactCreate, errors: [409], status: 201, response: ContactView }),
  listContacts: route({ method: 'GET', path: '/api/contacts', entry: 'functions/contacts/list.ts', summary: 'List contacts, newest first; search by name or phone', tag: 'Contacts', auth: true, query: listQuery(ContactListQuery), status: 200, response: pageEnvelope(ContactListItem) }),
  getContact: route({ method: 'GET', path: '/api/contacts/{id}', entry: 'functions/contacts/get.ts', summary: 'Get a contact', tag: 'Contacts', auth: true, params: IdParams, status: 200, response: ContactView }),
  updateContact: route({ method: 'PATCH', path: '/api/contacts/{id}', entry: 'functions/contacts/update.ts', summary: 'Update a contact (JSON merge patch)', tag: 'Contacts', auth: true, params: IdParams, body: ContactUpdate, errors: [409], status: 200, response: ContactView }),
  deleteContact: route({ method: 'DELETE', path: '/api/contacts/{id}', entry: 'functions/contacts/delete.ts', summary: 'Delete a contact', tag: 'Contacts', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
  uploadContacts: route({ method: 'POST', path: '/api/contacts/upload', entry: 'functions/contacts/upload.ts', summary: 'Import contacts from a CSV or .xlsx file (see docs/contact-import.md)', tag: 'Contacts', auth: true, bodyKind: 'raw', consumes: 'multipart/form-data', form: ContactImportForm, errors: [415], status: 200, response: ContactImportResult }),

  listHistory: route({ method: 'GET', path: '/api/history', entry: 'functions/history/list.ts', summary: 'List call history, newest first, with filters', tag: 'History', auth: true, query: listQuery(HistoryListQuery), status: 200, response: pageEnvelope(HistoryListItem) }),
  getHistory: route({ method: 'GET', path: '/api/history/{id}', entry: 'functions/history/get.ts', summary: 'Get one call record with transcript', tag: 'History', auth: true, params: IdParams, status: 200, response: HistoryView }),
  deleteHistory: route({ method: 'DELETE', path: '/api/history/{id}', entry: 'functions/history/delete.ts', summary: 'Delete a call record', tag: 'History', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
  getRecordingUrl: route({ method: 'GET', path: '/api/history/{id}/recording-url', entry: 'functions/history/recording-url.ts', summary: 'A presigned download URL for the call recording, valid 15 minutes', tag: 'History', auth: true, params: IdParams, status: 200, response: RecordingUrl }),

  // One handler, two paths: the spec's heading names phone-call, its sample request uses call (docs/calls.md).
  startPhoneCall: route({ method: 'POST', path: '/api/optimus/phone-call', entry: 'functions/calls/start.ts', summary: 'Start an outbound phone call (reserves credits; optional Idempotency-Key header)', tag: 'Calls', auth: true, body: PhoneCallRequest, errors: [402, 404, 422, 429], status: 202, response: CallStarted }),
  startCall: route({ method: 'POST', path: '/api/optimus/call', entry: 'functions/calls/start.ts', summary: 'Start an outbound phone call (alias of /api/optimus/phone-call)', tag: 'Calls', auth: true, body: PhoneCallRequest, errors: [402, 404, 422, 429], status: 202, response: CallStarted }),
  createMeetingLink: route({ method: 'POST', path: '/api/optimus/meeting-link', entry: 'functions/calls/meeting-link.ts', summary: 'Create a single-use video meeting link (credit check)', tag: 'Calls', auth: true, body: MeetingLinkRequest, errors: [402, 404], status: 201, response: MeetingLinkResult }),
  openMeeting: route({ method: 'GET', path: '/meeting/{callId}', entry: 'functions/meeting/open.ts', summary: 'Open a meeting link: the Join page; looks at the single-use token without using it (410 once used or expired). Without a token: the room page a reload lands on', tag: 'Calls', auth: false, ipLimit: 'meeting', params: MeetingParams, query: MeetingQuery, errors: [410], status: 200, produces: 'text/html' }),
  joinMeeting: route({ method: 'POST', path: '/meeting/{callId}/join', entry: 'functions/meeting/join.ts', summary: 'Join a meeting: redeems the single-use token sent in the body, form or JSON (410 once used or expired); with Accept: application/json the answer is the web session (docs/meeting.md)', tag: 'Calls', auth: false, ipLimit: 'meeting-join', params: MeetingParams, bodyKind: 'raw', consumes: 'application/x-www-form-urlencoded', form: z.object({ token: z.string().max(512) }), errors: [410], status: 200, response: MeetingJoined, produces: 'text/html' }),
  // A static segment where /meeting/{callId}/join has `join`: API Gateway and the local server tell them apart by method and segment.
  meetingAsset: route({ method: 'GET', path: '/meeting/assets/{file}', entry: 'functions/meeting/assets.ts', summary: 'Meeting page assets (its script, audio worklets and stylesheet)', tag: 'Calls', auth: false, params: z.object({ file: z.string() }), status: 200, produces: 'application/octet-stream' }),

  // The embeddable widget (docs/widget.md). The loader is a script other sites' pages load with one tag,
  // `src="…/widget/"` as the spec writes it: API Gateway refuses a route path ending in `/` and matches the
  // request with the trailing slash to `/widget` (the local server does the same for every route).
  widgetLoader: route({ method: 'GET', path: '/widget', entry: 'functions/widget/loader.ts', summary: 'The widget loader script: one <script> tag on any page (docs/widget.md)', tag: 'Widget', auth: false, status: 200, produces: 'text/javascript' }),
  startWidgetSession: route({ method: 'POST', path: '/widget/session', entry: 'functions/widget/session.ts', summary: 'Start a widget voice call: widget key, agent and Origin checked; the answer is the web session for /web-stream (docs/widget.md). The body is JSON sent as text/plain so the browser needs no preflight', tag: 'Widget', auth: false, ipLimit: 'widget', cors: true, bodyKind: 'raw', consumes: 'text/plain', form: WidgetSessionRequest, errors: [402, 429], status: 200, response: MeetingJoined }),

  // `available` precedes `{id}`: the local server takes the first match, as API Gateway prefers static segments.
  searchPhoneNumbers: route({ method: 'GET', path: '/api/phone-numbers/available', entry: 'functions/phone-numbers/available.ts', summary: 'Search numbers for sale (buy takes one of these)', tag: 'Phone numbers', auth: true, query: WorkspaceQuery.extend(AvailableNumbersQuery.shape), status: 200, response: z.object({ data: z.array(AvailableNumberView) }) }),
  buyPhoneNumber: route({ method: 'POST', path: '/api/phone-numbers/buy', entry: 'functions/phone-numbers/buy.ts', summary: 'Buy a number for the workspace', tag: 'Phone numbers', auth: true, body: PhoneNumberBuy, errors: [409], status: 201, response: PhoneNumberBought }),
  importPhoneNumber: route({ method: 'POST', path: '/api/phone-numbers/import', entry: 'functions/phone-numbers/import.ts', summary: 'Import a number from your own telephony account (BYOT); points its webhooks at the platform', tag: 'Phone numbers', auth: true, body: PhoneNumberImport, errors: [409, 422], status: 201, response: PhoneNumberImported }),
  listPhoneNumbers: route({ method: 'GET', path: '/api/phone-numbers', entry: 'functions/phone-numbers/list.ts', summary: 'List phone numbers, newest first', tag: 'Phone numbers', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(PhoneNumberView) }),
  getPhoneNumber: route({ method: 'GET', path: '/api/phone-numbers/{id}', entry: 'functions/phone-numbers/get.ts', summary: 'Get a phone number', tag: 'Phone numbers', auth: true, params: IdParams, status: 200, response: PhoneNumberView }),
  updatePhoneNumber: route({ method: 'PATCH', path: '/api/phone-numbers/{id}', entry: 'functions/phone-numbers/update.ts', summary: 'Assign (or with null unassign) the agent that answers inbound calls', tag: 'Phone numbers', auth: true, params: IdParams, body: PhoneNumberUpdate, errors: [422], status: 200, response: PhoneNumberView }),
  deletePhoneNumber: route({ method: 'DELETE', path: '/api/phone-numbers/{id}', entry: 'functions/phone-numbers/delete.ts', summary: 'Release a number (bought: back to the provider; imported: our webhooks removed)', tag: 'Phone numbers', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),

  createWebhookEndpoint: route({ method: 'POST', path: '/api/webhooks', entry: 'functions/webhooks/create.ts', summary: 'Create a webhook endpoint; the signing secret is shown once, in this answer', tag: 'Events', auth: true, body: WebhookEndpointCreate, status: 201, response: WebhookEndpointCreated }),
  listWebhookEndpoints: route({ method: 'GET', path: '/api/webhooks', entry: 'functions/webhooks/list.ts', summary: 'List webhook endpoints, newest first', tag: 'Events', auth: true, query: listQuery(z.object({})), status: 200, response: pageEnvelope(WebhookEndpointView) }),
  // `settings` precedes `{id}`: the local server takes the first match, as API Gateway prefers static segments.
  getWebhookSettings: route({ method: 'GET', path: '/api/webhooks/settings', entry: 'functions/webhooks/get-settings.ts', summary: 'Workspace event settings (the credits.low threshold)', tag: 'Events', auth: true, query: WorkspaceQuery, status: 200, response: WebhookSettingsView }),
  updateWebhookSettings: route({ method: 'PUT', path: '/api/webhooks/settings', entry: 'functions/webhooks/update-settings.ts', summary: 'Set the workspace event settings; creditsLowThreshold null turns the credits.low alert off', tag: 'Events', auth: true, body: WebhookSettingsUpdate, status: 200, response: WebhookSettingsView }),
  getWebhookEndpoint: route({ method: 'GET', path: '/api/webhooks/{id}', entry: 'functions/webhooks/get.ts', summary: 'Get a webhook endpoint (never its secret)', tag: 'Events', auth: true, params: IdParams, status: 200, response: WebhookEndpointView }),
  updateWebhookEndpoint: route({ method: 'PATCH', path: '/api/webhooks/{id}', entry: 'functions/webhooks/update.ts', summary: 'Update a webhook endpoint; enabled: true re-enables one disabled for failing', tag: 'Events', auth: true, params: IdParams, body: WebhookEndpointUpdate, status: 200, response: WebhookEndpointView }),
  deleteWebhookEndpoint: route({ method: 'DELETE', path: '/api/webhooks/{id}', entry: 'functions/webhooks/delete.ts', summary: 'Delete a webhook endpoint', tag: 'Events', auth: true, params: IdParams, bodyKind: 'none', status: 204 }),
  rotateWebhookSecret: route({ method: 'POST', path: '/api/webhooks/{id}/rotate-secret', entry: 'functions/webhooks/rotate-secret.ts', summary: 'Rotate the signing secret; the old one keeps signing for 24 hours', tag: 'Events', auth: true, params: IdParams, bodyKind: 'none', status: 200, response: WebhookSecretRotated }),
  sendWebhookTest: route({ method: 'POST', path: '/api/webhooks/{id}/test', entry: 'functions/webhooks/test.ts', summary: 'Send a test.ping event to the endpoint', tag: 'Events', auth: true, params: IdParams, bodyKind: 'none', status: 202, response: WebhookTestResult }),
  replayWebhookEvents: route({ method: 'POST', path: '/api/webhooks/{id}/replay', entry: 'functions/webhooks/replay.ts', summary: 'Deliver stored events again: one by id, or a time range', tag: 'Events', auth: true, params: IdParams, body: WebhookReplay, errors: [409], status: 202, response: WebhookReplayResult }),
  listWebhookDeliveries: route({ method: 'GET', path: '/api/webhooks/{id}/deliveries', entry: 'functions/webhooks/deliveries.ts', summary: 'The delivery log of an endpoint: attempts, status, latency, response excerpt', tag: 'Events', auth: true, params: IdParams, query: listQuery(DeliveryListQuery), status: 200, response: pageEnvelope(WebhookDeliveryView) }),

  twilioVoice: route({ method: 'POST', path: '/twilio/voice', entry: 'functions/twilio/voice.ts', summary: 'Twilio voice webhook (signed by Twilio): answers inbound calls with TwiML', tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 200, produces: 'text/xml' }),
  twilioStatus: route({ method: 'POST', path: '/twilio/status', entry: 'functions/twilio/status.ts', summary: 'Twilio call status callback (signed by Twilio)', tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 204 }),
  twilioAmd: route({ method: 'POST', path: '/twilio/amd', entry: 'functions/twilio/amd.ts', summary: 'Twilio asynchronous answering-machine verdict (signed by Twilio)', tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 204 }),
  twilioTransfer: route({ method: 'POST', path: '/twilio/transfer', entry: 'functions/twilio/transfer.ts', summary: "Twilio <Gather> action of a warm transfer's target (signed by Twilio): answers with TwiML", tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 200, produces: 'text/xml' }),

  // Dashboard sign-in (docs/dashboard.md). Public: they take a password, a code or the refresh cookie, never a key.
  signUp: route({ method: 'POST', path: '/auth/sign-up', entry: 'functions/auth/index.ts', summary: 'Dashboard: create an account and its workspace; a confirmation code is emailed', tag: 'Dashboard', auth: false, ipLimit: 'account', body: SignUpBody, errors: [409, 429], status: 201, response: SignUpResult }),
  confirmSignUp: route({ method: 'POST', path: '/auth/confirm-sign-up', entry: 'functions/auth/index.ts', summary: 'Dashboard: confirm the email address with its code', tag: 'Dashboard', auth: false, ipLimit: 'account', body: ConfirmSignUpBody, errors: [429], status: 204 }),
  signIn: route({ method: 'POST', path: '/auth/sign-in', entry: 'functions/auth/index.ts', summary: 'Dashboard: sign in; answers a session key and sets the HttpOnly refresh cookie', tag: 'Dashboard', auth: false, ipLimit: 'account', body: SignInBody, errors: [429], status: 200, response: Session }),
  refreshSession: route({ method: 'POST', path: '/auth/refresh', entry: 'functions/auth/index.ts', summary: 'Dashboard: a fresh session key from the refresh cookie; workspaceId switches workspace (x-requested-with: dashboard)', tag: 'Dashboard', auth: false, body: RefreshBody.optional(), status: 200, response: Session }),
  signOut: route({ method: 'POST', path: '/auth/sign-out', entry: 'functions/auth/index.ts', summary: "Dashboard: sign out (the user's session keys and refresh token revoked, the cookie cleared)", tag: 'Dashboard', auth: false, bodyKind: 'none', status: 204 }),
  forgotPassword: route({ method: 'POST', path: '/auth/forgot-password', entry: 'functions/auth/index.ts', summary: 'Dashboard: email a password reset code (the same answer for an unknown address)', tag: 'Dashboard', auth: false, ipLimit: 'account', body: ForgotPasswordBody, errors: [429], status: 202, response: z.object({ message: z.string() }) }),
  resetPassword: route({ method: 'POST', path: '/auth/reset-password', entry: 'functions/auth/index.ts', summary: 'Dashboard: set a new password with the emailed code', tag: 'Dashboard', auth: false, ipLimit: 'account', body: ResetPasswordBody, errors: [429], status: 204 }),
  acceptInvitation: route({ method: 'POST', path: '/auth/accept-invitation', entry: 'functions/auth/index.ts', summary: "Dashboard: join a workspace with an invitation's token (refresh cookie; x-requested-with: dashboard)", tag: 'Dashboard', auth: false, body: AcceptInvitationBody, errors: [409, 410], status: 200, response: Session }),

  // For signed-in dashboard users (a session key as x-api-key); API keys cannot manage keys or members.
  listApiKeys: route({ method: 'GET', path: '/api/keys', entry: 'functions/dashboard/index.ts', summary: "List the workspace's API keys (never their values); owners only, with a session key", tag: 'Dashboard', auth: true, access: 'owner', status: 200, response: z.object({ data: z.array(KeyView) }) }),
  createApiKey: route({ method: 'POST', path: '/api/keys', entry: 'functions/dashboard/index.ts', summary: 'Create an API key (full or widget); its value is shown once, in this answer; owners only, with a session key', tag: 'Dashboard', auth: true, access: 'owner', body: KeyCreate, status: 201, response: KeyCreated }),
  revokeApiKey: route({ method: 'DELETE', path: '/api/keys/{id}', entry: 'functions/dashboard/index.ts', summary: 'Revoke an API key: refused from its next request on; owners only, with a session key', tag: 'Dashboard', auth: true, access: 'owner', params: IdParams, bodyKind: 'none', status: 204 }),
  listMembers: route({ method: 'GET', path: '/api/members', entry: 'functions/dashboard/index.ts', summary: "The workspace's members and their roles (session key)", tag: 'Dashboard', auth: true, access: 'user', status: 200, response: z.object({ data: z.array(MemberView) }) }),
  createInvitation: route({ method: 'POST', path: '/api/invitations', entry: 'functions/dashboard/index.ts', summary: 'Invite an email address to the workspace; answers the invitation link (owners only, with a session key)', tag: 'Dashboard', auth: true, access: 'owner', body: InvitationCreate, status: 201, response: InvitationCreated }),
  createUserWorkspace: route({ method: 'POST', path: '/api/workspaces', entry: 'functions/dashboard/index.ts', summary: 'Create another workspace, owned by the signed-in user (session key); switch to it with /auth/refresh', tag: 'Dashboard', auth: true, access: 'user', body: WorkspaceCreate, status: 201, response: WorkspaceCreated }),
  getCredits: route({ method: 'GET', path: '/api/credits', entry: 'functions/dashboard/index.ts', summary: 'Credit balance, reserved credits and usage per day over the last 30 days', tag: 'Credits', auth: true, query: WorkspaceQuery, status: 200, response: CreditsView }),

  openapi: route({ method: 'GET', path: '/api/openapi.json', entry: 'functions/docs/openapi.ts', summary: 'This API as an OpenAPI 3.1 document', tag: 'Docs', auth: false, status: 200, produces: 'application/json' }),
  docs: route({ method: 'GET', path: '/docs', entry: 'functions/docs/page.ts', summary: 'API reference page', tag: 'Docs', auth: false, status: 200, produces: 'text/html' }),
  docsAsset: route({ method: 'GET', path: '/docs/assets/{file}', entry: 'functions/docs/page.ts', summary: 'API reference page assets', tag: 'Docs', auth: false, params: z.object({ file: z.string() }), status: 200, produces: 'application/octet-stream' }),
} as const satisfies Record<string, RouteSpec>;

export type OperationId = keyof typeof ROUTES;
