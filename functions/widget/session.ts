import { MAX_WIDGET_BODY_BYTES, WidgetSessionRequest } from '../../lib/domain/widget.js';
import { MeetingJoined } from '../../lib/domain/call.js';
import { defineRoute } from '../../lib/http/handler.js';
import { sourceIp } from '../../lib/http/source-ip.js';
import { noStoreJson, widgetBody } from '../../lib/http/widget-body.js';
import { WIDGET_ROUTES } from '../../lib/infra/routes/widget.js';
import { authorizeWidget, startWidgetCall } from '../../lib/services/widget.js';

/**
 * POST /widget/session: a widget voice call. The key, the agent and the page's Origin are checked
 * (lib/services/widget.ts); the answer is the web session the panel opens `/web-stream` with. It carries
 * the tab's credential: no cache may keep it.
 */
export const handler = defineRoute(WIDGET_ROUTES.startWidgetSession, async ({ deps, event }) => {
  const body = widgetBody(event, WidgetSessionRequest, MAX_WIDGET_BODY_BYTES);
  const grant = await authorizeWidget(deps, body, event.headers?.origin, sourceIp(event));
  const session = await startWidgetCall(deps, grant);
  return noStoreJson(MeetingJoined.parse(session));
});
