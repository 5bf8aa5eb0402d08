import { ChatStarted } from '../../lib/domain/chat.js';
import { MAX_WIDGET_BODY_BYTES, WidgetSessionRequest } from '../../lib/domain/widget.js';
import { defineRoute } from '../../lib/http/handler.js';
import { sourceIp } from '../../lib/http/source-ip.js';
import { noStoreJson, widgetBody } from '../../lib/http/widget-body.js';
import { WIDGET_ROUTES } from '../../lib/infra/routes/widget.js';
import { startChat } from '../../lib/services/chats.js';
import { authorizeWidget } from '../../lib/services/widget.js';

/**
 * POST /widget/chat: a widget text chat. The same checks as a widget call (lib/services/widget.ts); the
 * answer is the chat session the panel opens `/web-chat` with, carrying the tab's credential: no-store.
 */
export const handler = defineRoute(WIDGET_ROUTES.startWidgetChat, async ({ deps, event }) => {
  const body = widgetBody(event, WidgetSessionRequest, MAX_WIDGET_BODY_BYTES);
  const grant = await authorizeWidget(deps, body, event.headers?.origin, sourceIp(event));
  const chat = await startChat(deps, { workspaceId: grant.workspaceId, widget: grant, agent: grant.agent, agentVersion: grant.agentVersion, contactName: `Web visitor (${grant.origin})` });
  return noStoreJson(ChatStarted.parse(chat));
});
