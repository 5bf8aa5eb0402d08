import * as z from 'zod';

/** Runs this published version of the agent instead of its latest (docs/agent-versions.md). */
export const AgentVersionPin = z.number().int().min(1).max(1_000_000).optional().describe('a published version of the agent to run instead of its latest (docs/agent-versions.md)');
/** As {@link AgentVersionPin}, or `draft`: a try-out of the unpublished draft (calls, meeting links, chats). */
export const ConversationVersionPin = z
  .union([z.number().int().min(1).max(1_000_000), z.literal('draft')])
  .optional()
  .describe('a published version of the agent to run instead of its latest, or draft to try the unpublished draft (docs/agent-versions.md)');
