import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { getAgent } from '../../lib/store/agents.js';
import { startChat } from '../../lib/services/chats.js';
import { agentForCall } from '../../lib/services/call-variables.js';

/**
 * POST /api/chats: a text chat for a developer's own app (docs/chat.md). The answer carries the chat's
 * credential, so no cache may keep it.
 */
export const handler = defineRoute(CALLS_ROUTES.createChat, async ({ deps, workspaceId, body }) => {
  const { variables, metadata, agent_overrides: agentOverrides } = body;
  const agent = await agentForCall(deps, workspaceId, await getAgent(deps.db, workspaceId, body.agentId), agentOverrides);
  return startChat(deps, { workspaceId, agent, contactName: body.contactName ?? 'Chat visitor', ...(variables && { variables }), ...(metadata && { metadata }), ...(agentOverrides && { agentOverrides }) });
});
