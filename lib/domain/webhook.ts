import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { BodyWorkspaceId, storedNumber, Timestamp, WorkspaceIdField } from './common.js';
import type { InboundAnswerLog } from './inbound-delivery.js';

/**
 * Webhook endpoints and the events they receive (docs/webhooks.md). An event is one envelope for every type;
 * a delivery is one event on its way to one endpoint, with every attempt it took.
 */

/** The event types a customer can subscribe to. `test.ping` is what "send test event" sends. */
export const WEBHOOK_EVENT_TYPES = [
  'call.started',
  'call.ended',
  'call.analyzed',
  'call.transfer',
  'call.handoff',
  'contacts.import.completed',
  'phone_number.released',
  'credits.low',
  'webhook.disabled',
  'test_run.completed',
  'test.ping',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One envelope for every event type; `id` is the de-duplication key (it is also the `webhook-id` header). */
export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly createdAt: string;
  readonly workspaceId: string;
  readonly data: Record<string, unknown>;
}

/** Endpoints per workspace: enough for a CRM, a warehouse and a few tools; each event fans out to all. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

const Url = z.string().trim().min(1).max(2_000);
const EventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((t) => new Set(t).size === t.length, 'event types must be unique');

/** POST /api/webhooks body. `eventTypes` left out subscribes to every type. */
export const WebhookEndpointCreate = z
  .strictObject({
    url: Url,
    description: z.string().trim().max(500).default(''),
    eventTypes: EventTypes.optional(),
    workspaceId: BodyWorkspaceId,
  })
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;

/** PATCH /api/webhooks/{id} body. `enabled: true` re-enables an endpoint that was disabled for failing. */
export const WebhookEndpointUpdate = z
  .strictObject({
    url: Url.optional(),
    description: z.string().trim().max(500).optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean().optional(),
    workspaceId: WorkspaceIdField.optional(),
  })
  .meta({ id: 'WebhookEndpointUpdate' });
export type WebhookEndpointUpdate = z.infer<typeof WebhookEndpointUpdate>;

/** The stored endpoint, secrets in the clear (the store seals them). */
export interface WebhookEndpoint {
  _id: string;
  workspaceId: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  status: 'enabled' | 'disabled';
  disabledReason?: string;
  /** The signing secret (`whsec_` + base64 of 32 random bytes). */
  secret: string;
  /** The secret before the last rotation; deliveries are signed with it too until it expires. */
  previousSecret?: string;
  previousSecretExpiresAt?: string;
  /** When deliveries started failing for good (a delivery gave up); cleared by the next success. */
  failingSince?: string;
  createdAt: string;
  updatedAt: string;
}

const endpointFields = {
  _id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  status: z.enum(['enabled', 'disabled']),
  disabledReason: z.string().optional(),
  previousSecretExpiresAt: Timestamp.optional(),
  failingSince: Timestamp.optional(),
  workspaceId: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
/** An endpoint as every read returns it: never a secret. */
export const WebhookEndpointView = z.object(endpointFields).meta({ id: 'WebhookEndpoint' });
/** The create answer: the only time (with rotation) the secret is shown. */
export const WebhookEndpointCreated = z
  .object({ ...endpointFields, secret: z.string() })
  .meta({ id: 'WebhookEndpointCreated' });
export const WebhookSecretRotated = z
  .object({ secret: z.string(), previousSecretExpiresAt: Timestamp })
  .meta({ id: 'WebhookSecretRotated' });

/** How long the secret before a rotation keeps signing deliveries: a day to roll the receivers over. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/** A new signing secret in the Standard Webhooks form: `whsec_` and base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** One delivery attempt as the delivery log shows it. */
export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status; absent when no answer came (timeout, refused, connection error). */
  status?: number;
  /** Why the attempt failed without an HTTP answer, or why it was not sent. */
  error?: string;
  latencyMs: number;
  /** The first characters of the receiver's answer. */
  responseExcerpt?: string;
}

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event on its way to one endpoint. A replay is a new delivery of the same event (same `webhook-id`). */
export interface WebhookDelivery {
  _id: string;
  endpointId: string;
  workspaceId: string;
  eventId: string;
  /** `call.inbound` for a number's inbound webhook (its `endpointId` is the number's id; docs/telephony.md). */
  eventType: WebhookEventType | 'call.inbound';
  /** What a `call.inbound` answer did with the call. */
  inbound?: InboundAnswerLog;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
}

const Attempt = z.object({
  at: Timestamp,
  status: z.number().int().optional(),
  error: z.string().optional(),
  latencyMs: z.number(),
  responseExcerpt: z.string().optional(),
});
export const WebhookDeliveryView = z
  .object({
    _id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(Attempt),
    nextAttemptAt: Timestamp.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });

export const DeliveryListQuery = z.object({ status: z.enum(DELIVERY_STATUSES).optional() });

const isoInstant = z.string().trim().refine((v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v), {
  message: 'an ISO 8601 date-time, for example 2026-01-31T12:00:00Z',
});

/** Replays sent at most once per request: a day of a busy workspace; a longer range is several requests. */
export const MAX_REPLAY_EVENTS = 1_000;

/**
 * POST /api/webhooks/{id}/replay: one event by id, or every stored event of the endpoint's types created in
 * [since, until] (at most {@link MAX_REPLAY_EVENTS}, oldest first).
 */
export const WebhookReplay = z
  .strictObject({
    eventId: z.string().min(1).max(64).optional(),
    since: isoInstant.optional(),
    until: isoInstant.optional(),
    workspaceId: WorkspaceIdField.optional(),
  })
  .superRefine((body, ctx) => {
    const range = body.since !== undefined || body.until !== undefined;
    if (body.eventId === undefined && !range) ctx.addIssue({ code: 'custom', message: 'send eventId, or since (and optionally until)' });
    if (body.eventId !== undefined && range) ctx.addIssue({ code: 'custom', message: 'send eventId or a time range, not both' });
    if (range && body.since === undefined) ctx.addIssue({ code: 'custom', path: ['since'], message: 'a range needs since' });
    if (body.since && body.until && Date.parse(body.since) > Date.parse(body.until)) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: 'since is after until' });
    }
  })
  .meta({ id: 'WebhookReplay' });
export type WebhookReplay = z.infer<typeof WebhookReplay>;
export const WebhookReplayResult = z
  .object({
    replayed: z.number().int(),
    deliveryIds: z.array(z.string()),
    /** Matching events were left out: the replay budget had less room, or more than MAX_REPLAY_EVENTS matched. */
    truncated: z.boolean(),
    /** When truncated: replay again from here (`since`) to continue with the first event left out. */
    nextSince: Timestamp.optional(),
  })
  .meta({ id: 'WebhookReplayResult' });
export const WebhookTestResult = z.object({ eventId: z.string(), deliveryId: z.string() }).meta({ id: 'WebhookTestResult' });

/** The queue message that asks for one attempt of one delivery. */
export const DeliveryMessage = z.object({
  workspaceId: z.string().min(1),
  endpointId: z.string().min(1),
  deliveryId: z.string().min(1),
  eventId: z.string().min(1),
  /** 1 for the first attempt. */
  attempt: z.number().int().min(1),
  /** Not to be attempted before this instant (SQS delays at most 15 minutes; longer waits hop). */
  notBefore: Timestamp.optional(),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/**
 * The retry policy. Delays between attempts follow the Standard Webhooks reference schedule (5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h: about 28 hours in all, so a receiver down for a day still gets its
 * events), each with ±20 % jitter so a recovering receiver is not hit by every retry at once.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
/** A `Retry-After` longer than this is not waited for: the schedule's own longest step. */
export const MAX_RETRY_AFTER_MS = 36_000 * 1000;

/** What one attempt's outcome means for the delivery. */
export type AttemptVerdict = 'succeeded' | 'retry' | 'give_up';

/** 2xx succeeds; timeouts, connection errors, 5xx and 429 are retried; every other answer (3xx, 4xx) is final. */
export function verdictOf(status: number | undefined, refused: boolean): AttemptVerdict {
  if (refused) return 'give_up';
  if (status === undefined) return 'retry';
  if (status >= 200 && status < 300) return 'succeeded';
  if (status === 429 || status >= 500) return 'retry';
  return 'give_up';
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The wait before attempt `attempt + 1`, or undefined when the schedule is exhausted. A receiver's
 * `Retry-After` is honoured when it asks for longer than the schedule (up to {@link MAX_RETRY_AFTER_MS}).
 * `random` is injected so tests can pin the jitter.
 */
export function retryDelayMs(
  attempt: number,
  schedule: readonly number[],
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const step = schedule[attempt - 1];
  if (step === undefined) return undefined;
  const jittered = step * 1000 * (0.8 + 0.4 * random());
  return Math.round(Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS)));
}

/** How long events are kept for replay. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * PUT /api/webhooks/settings: workspace-wide event settings. `creditsLowThreshold`: `credits.low` is sent
 * once when the balance falls under it (checked after each call's reservation), and again only after the
 * balance has been back at or over it; null turns the alert off.
 */
export const WebhookSettingsUpdate = z
  .strictObject({
    creditsLowThreshold: storedNumber(z.number().min(0).max(1_000_000_000)).nullable(),
    workspaceId: WorkspaceIdField.optional(),
  })
  .meta({ id: 'WebhookSettingsUpdate' });
export type WebhookSettingsUpdate = z.infer<typeof WebhookSettingsUpdate>;
export const WebhookSettingsView = z.object({ creditsLowThreshold: z.number().nullable() }).meta({ id: 'WebhookSettings' });
