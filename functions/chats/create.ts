import { defineRoute } from '../../lib/http/handler.js';
import { CALLS_ROUTES } from '../../lib/infra/routes/calls.js';
import { agentToRunById } from '../../lib/services/agent-runtime.js';
import { startChat } from '../../lib/services/chats.js';
import { agentForCall } from '../../lib/services/call-variables.js';

/**
 * POST /api/chats: a text chat for a developer's own app (docs/chat.md). The answer carries the chat's
 * credential, so no cache may keep it.
 */
export const handler = defineRoute(CALLS_ROUTES.createChat, async ({ deps, workspaceId, body }) => {
  const { variables, metadata, agent_overrides: agentOverrides } = body;
  const run = await agentToRunById(deps.db, workspaceId, body.agentId, body.agent_version);
  const agent = await agentForCall(deps, workspaceId, run.agent, agentOverrides);
  return startChat(deps, { workspaceId, agent, agentVersion: run.version, contactName: body.contactName ?? 'Chat visitor', ...(variables && { variables }), ...(metadata && { metadata }), ...(agentOverrides && { agentOverrides }) });
});
