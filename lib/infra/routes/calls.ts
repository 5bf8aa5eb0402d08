import * as z from 'zod';
import { CallStarted, MeetingLinkRequest, MeetingLinkResult, MeetingJoined, MeetingParams, MeetingQuery, PhoneCallRequest } from '../../domain/call.js';
import { ChatRequest, ChatStarted } from '../../domain/chat.js';
import { route, type RouteSpec } from '../route-spec.js';

/** The calls routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const CALLS_ROUTES = {
  // One handler, two paths: the spec's heading names phone-call, its sample request uses call (docs/calls.md).
  startPhoneCall: route({ method: 'POST', path: '/api/optimus/phone-call', entry: 'functions/calls/start.ts', summary: 'Start an outbound phone call (reserves credits; optional Idempotency-Key header)', tag: 'Calls', auth: true, body: PhoneCallRequest, errors: [402, 404, 422, 429], status: 202, response: CallStarted }),
  startCall: route({ method: 'POST', path: '/api/optimus/call', entry: 'functions/calls/start.ts', summary: 'Start an outbound phone call (alias of /api/optimus/phone-call)', tag: 'Calls', auth: true, body: PhoneCallRequest, errors: [402, 404, 422, 429], status: 202, response: CallStarted }),
  createMeetingLink: route({ method: 'POST', path: '/api/optimus/meeting-link', entry: 'functions/calls/meeting-link.ts', summary: 'Create a single-use video meeting link (credit check)', tag: 'Calls', auth: true, body: MeetingLinkRequest, errors: [402, 404], status: 201, response: MeetingLinkResult }),
  createChat: route({ method: 'POST', path: '/api/chats', entry: 'functions/chats/create.ts', summary: 'Start a text chat with an agent (credit check for one message); the answer is the chat session: open chatUrl and talk over the WebSocket (docs/chat.md)', tag: 'Calls', auth: true, body: ChatRequest, errors: [402, 404], status: 201, response: ChatStarted }),
  openMeeting: route({ method: 'GET', path: '/meeting/{callId}', entry: 'functions/meeting/open.ts', summary: 'Open a meeting link: the Join page; looks at the single-use token without using it (410 once used or expired). Without a token: the room page a reload lands on', tag: 'Calls', auth: false, ipLimit: 'meeting', params: MeetingParams, query: MeetingQuery, errors: [410], status: 200, produces: 'text/html' }),
  joinMeeting: route({ method: 'POST', path: '/meeting/{callId}/join', entry: 'functions/meeting/join.ts', summary: 'Join a meeting: redeems the single-use token sent in the body, form or JSON (410 once used or expired); with Accept: application/json the answer is the web session (docs/meeting.md)', tag: 'Calls', auth: false, ipLimit: 'meeting-join', params: MeetingParams, bodyKind: 'raw', consumes: 'application/x-www-form-urlencoded', form: z.object({ token: z.string().max(512) }), errors: [410], status: 200, response: MeetingJoined, produces: 'text/html' }),
  // A static segment where /meeting/{callId}/join has `join`: API Gateway and the local server tell them apart by method and segment.
  meetingAsset: route({ method: 'GET', path: '/meeting/assets/{file}', entry: 'functions/meeting/assets.ts', summary: 'Meeting page assets (its script, audio worklets and stylesheet)', tag: 'Calls', auth: false, params: z.object({ file: z.string() }), status: 200, produces: 'application/octet-stream' }),
} as const satisfies Record<string, RouteSpec>;
