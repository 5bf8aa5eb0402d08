import * as z from 'zod';
import { BodyWorkspaceId } from './common.js';
import { ConversationVersionPin } from './agent-pin.js';
import { StandInNotice } from './stand-ins.js';
import { CallVariables } from './template.js';
import { CallMetadata } from './call-metadata.js';
import { AgentOverrides } from './agent-overrides.js';

/**
 * Text chats with an agent (docs/chat.md): created through the API (a full key) or by the widget (a widget
 * key), run on the streaming service's `/web-chat` socket, recorded in history as type `chat`.
 */

/** POST /api/chats. */
export const ChatRequest = z
  .strictObject({
    /** The agent that answers. */
    agentId: z.string().trim().min(1).max(64),
    /** Shown in history as the other party (a chat has no contact); `Chat visitor` when absent. */
    contactName: z.string().trim().min(1).max(200).optional(),
    workspaceId: BodyWorkspaceId,
    variables: CallVariables.optional(),
    metadata: CallMetadata.optional(),
    agent_overrides: AgentOverrides.optional(),
    agent_version: ConversationVersionPin,
  })
  .meta({ id: 'ChatRequest' });
export type ChatRequest = z.infer<typeof ChatRequest>;

/** A chat ready to open: its socket and the credential its first message presents. */
export const ChatStarted = z
  .object({
    chatId: z.string(),
    agentName: z.string(),
    /** The streaming service's chat socket (`/web-chat`). */
    chatUrl: z.string(),
    /** The chat's `wss1` credential: send it in `hello`; a page keeps it in sessionStorage to come back after a reload. */
    credential: z.string(),
    expiresAt: z.string().meta({ format: 'date-time' }),
    /** Present only when the agent's model is simulated (`npm start`): what, and how to make it real (a chat has no speech or telephony). */
    standIns: StandInNotice.optional(),
  })
  .meta({ id: 'ChatStarted' });
export type ChatStarted = z.infer<typeof ChatStarted>;
