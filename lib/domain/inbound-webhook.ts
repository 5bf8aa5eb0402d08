import * as z from 'zod';
import { AgentOverrides } from './agent-overrides.js';
import { CallMetadata } from './call-metadata.js';
import { CallVariables } from './template.js';

/**
 * A number's inbound webhook (docs/telephony.md, "Inbound webhook"): before an inbound call is answered the
 * platform POSTs `call.inbound` to the number's `inbound_webhook_url`, signed like the workspace's webhooks
 * (Standard Webhooks), and waits at most {@link INBOUND_WEBHOOK_BUDGET_MS} while the caller hears ringing.
 */

/**
 * 3 s: Twilio keeps ringing while our voice webhook has not answered (its own limit is 15 s), and a caller
 * hears one to two rings in that time; a slower server gets the number's agent instead.
 */
export const INBOUND_WEBHOOK_BUDGET_MS = 3_000;
/** An answer carries at most 16 KB of variables and 16 KB of metadata, plus overrides: 64 KB is ample. */
export const MAX_INBOUND_ANSWER_BYTES = 64 * 1024;

/** What the customer's server may answer (an empty 2xx body: the number's agent, as is). */
export const InboundWebhookAnswer = z.strictObject({
  /** An agent of the number's workspace to answer instead of the number's own. */
  agentId: z.string().min(1).max(64).optional(),
  variables: CallVariables.optional(),
  agent_overrides: AgentOverrides.optional(),
  metadata: CallMetadata.optional(),
  /** `busy`: a busy tone; `{message}`: said, then the call hangs up. Nothing is reserved or recorded. */
  reject: z.union([z.literal('busy'), z.strictObject({ message: z.string().trim().min(1).max(1_000) })]).optional(),
});
export type InboundWebhookAnswer = z.infer<typeof InboundWebhookAnswer>;
