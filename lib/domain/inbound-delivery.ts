import * as z from 'zod';
import { Timestamp } from './common.js';

/**
 * What a number's inbound webhook answered for one call, as its delivery log keeps it and
 * `GET /api/phone-numbers/{id}/inbound-deliveries` shows it (docs/telephony.md, "Inbound webhook"). Kept
 * apart from lib/domain/inbound-webhook.ts, whose answer schema carries the agent schema: the route that
 * lists the log needs none of it.
 */

/** `routed`: the answer was used (an agent, maybe with data); `rejected`: it hung up; `fallback`: not used. */
export const INBOUND_OUTCOMES = ['routed', 'rejected', 'fallback'] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/** Stored on the `call.inbound` delivery beside its one attempt. */
export interface InboundAnswerLog {
  /** The call id the webhook was told (the call's id when it was answered). */
  readonly callId: string;
  readonly outcome: InboundOutcome;
  /** The agent that answered: the one named, else the number's own; absent when rejected or nobody could. */
  readonly agentId?: string;
  /** Why the answer was not used (`fallback` only). */
  readonly reason?: string;
}

export const InboundDeliveryView = z
  .object({
    _id: z.string(),
    /** The `webhook-id` of the request. */
    eventId: z.string(),
    callId: z.string(),
    outcome: z.enum(INBOUND_OUTCOMES),
    agentId: z.string().optional(),
    reason: z.string().optional(),
    /** The customer server's HTTP status; absent when no answer came (timeout, refused, connection error). */
    status: z.number().int().optional(),
    /** From the request's start to its answer read (or the budget spent), in milliseconds. */
    latencyMs: z.number(),
    /** The first characters of the answer. */
    responseExcerpt: z.string().optional(),
    createdAt: Timestamp,
  })
  .meta({ id: 'InboundDelivery' });
export type InboundDeliveryView = z.infer<typeof InboundDeliveryView>;
