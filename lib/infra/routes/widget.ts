import { MeetingJoined } from '../../domain/call.js';
import { ChatStarted } from '../../domain/chat.js';
import { WidgetSessionRequest } from '../../domain/widget.js';
import { route, type RouteSpec } from '../route-spec.js';

/** The widget routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const WIDGET_ROUTES = {
  // The embeddable widget (docs/widget.md). The loader is a script other sites' pages load with one tag,
  // `src="…/widget/"` as the spec writes it: API Gateway refuses a route path ending in `/` and matches the
  // request with the trailing slash to `/widget` (the local server does the same for every route).
  widgetLoader: route({ method: 'GET', path: '/widget', entry: 'functions/widget/loader.ts', summary: 'The widget loader script: one <script> tag on any page (docs/widget.md)', tag: 'Widget', auth: false, status: 200, produces: 'text/javascript' }),
  startWidgetChat: route({ method: 'POST', path: '/widget/chat', entry: 'functions/widget/chat.ts', summary: 'Start a widget text chat: widget key, agent and Origin checked as for a call; the answer is the chat session for /web-chat (docs/chat.md). JSON sent as text/plain (no preflight)', tag: 'Widget', auth: false, ipLimit: 'widget', cors: true, bodyKind: 'raw', consumes: 'text/plain', form: WidgetSessionRequest, errors: [402, 429], status: 200, response: ChatStarted }),
  startWidgetSession: route({ method: 'POST', path: '/widget/session', entry: 'functions/widget/session.ts', summary: 'Start a widget voice call: widget key, agent and Origin checked; the answer is the web session for /web-stream (docs/widget.md). The body is JSON sent as text/plain so the browser needs no preflight', tag: 'Widget', auth: false, ipLimit: 'widget', cors: true, bodyKind: 'raw', consumes: 'text/plain', form: WidgetSessionRequest, errors: [402, 429], status: 200, response: MeetingJoined }),
} as const satisfies Record<string, RouteSpec>;
