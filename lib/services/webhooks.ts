import type { Deps } from '../deps.js';
import { BadRequestError, ConflictError, NotFoundError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import {
  MAX_REPLAY_EVENTS,
  MAX_WEBHOOK_ENDPOINTS,
  SECRET_OVERLAP_MS,
  WEBHOOK_EVENT_TYPES,
  newWebhookSecret,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
  type WebhookEvent,
  type WebhookEndpointUpdate,
  type WebhookReplay,
  type WebhookSettingsUpdate,
} from '../domain/webhook.js';
import { assertWebhookUrl, type WebhookUrlPolicy } from '../domain/webhook-url.js';
import { RateLimitedError, ratePolicies, takeBudget, takeRate } from './rate-limits.js';
import { countOf } from '../store/collection.js';
import { readCreditsState, setLowCreditsThreshold } from '../store/credits.js';
import type { Db } from '../store/dynamo.js';
import {
  eventsBetween,
  findEvent,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listDeliveries,
  putEvent,
  putNewWebhookEndpoint,
  saveWebhookEndpoint,
} from '../store/webhooks.js';
import { newEvent, queueDelivery, type EventDeps } from './webhook-events.js';

/**
 * Webhook endpoints as use cases: create (the secret shown once), update, rotate the secret (the old one
 * keeps signing for a day), send a test event, replay. URLs pass the SSRF policy at save time here and again
 * at every delivery (lib/services/webhook-delivery.ts).
 */

/** Every event type except `test.ping`, which is sent only on request. */
const ALL_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'test.ping');

export async function createWebhookEndpoint(
  deps: Pick<EventDeps, 'db' | 'secrets'>,
  ws: string,
  input: WebhookEndpointCreate,
  policy: WebhookUrlPolicy,
): Promise<WebhookEndpoint> {
  const url = assertWebhookUrl(input.url, policy);
  if ((await countOf(deps.db, ws, 'webhookEndpoint')) >= MAX_WEBHOOK_ENDPOINTS) {
    throw new BadRequestError(`A workspace holds at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`, [], 'limit_exceeded');
  }
  const now = new Date().toISOString();
  const endpoint: WebhookEndpoint = {
    _id: newId('webhookEndpoint'),
    workspaceId: ws,
    url,
    description: input.description,
    eventTypes: input.eventTypes ?? [...ALL_TYPES],
    status: 'enabled',
    secret: newWebhookSecret(),
    createdAt: now,
    updatedAt: now,
  };
  await putNewWebhookEndpoint(deps.db, deps.secrets, endpoint);
  return endpoint;
}

/** Applies the fields sent; `enabled: true` re-enables a disabled endpoint and forgets its failing streak. */
export async function changeWebhookEndpoint(
  deps: Pick<EventDeps, 'db' | 'secrets'>,
  ws: string,
  id: string,
  input: WebhookEndpointUpdate,
  policy: WebhookUrlPolicy,
): Promise<WebhookEndpoint> {
  const current = await getWebhookEndpoint(deps.db, deps.secrets, ws, id);
  const { workspaceId: _ignored, enabled, url, ...rest } = input;
  const next: WebhookEndpoint = {
    ...current,
    ...rest,
    ...(url !== undefined ? { url: assertWebhookUrl(url, policy) } : {}),
    ...(enabled !== undefined ? { status: enabled ? 'enabled' : 'disabled' } : {}),
    updatedAt: new Date().toISOString(),
  };
  const remove: (keyof WebhookEndpoint)[] = enabled === true ? ['disabledReason', 'failingSince'] : [];
  if (enabled === false) next.disabledReason = 'disabled by a user';
  for (const r of remove) delete next[r];
  return saveWebhookEndpoint(deps.db, deps.secrets, next, remove);
}

/** A new secret; the current one keeps signing (beside the new) for {@link SECRET_OVERLAP_MS}. */
export async function rotateWebhookSecret(
  deps: Pick<EventDeps, 'db' | 'secrets'>,
  ws: string,
  id: string,
  nowMs: number = Date.now(),
): Promise<{ secret: string; previousSecretExpiresAt: string }> {
  const current = await getWebhookEndpoint(deps.db, deps.secrets, ws, id);
  const previousSecretExpiresAt = new Date(nowMs + SECRET_OVERLAP_MS).toISOString();
  const saved = await saveWebhookEndpoint(deps.db, deps.secrets, {
    ...current,
    secret: newWebhookSecret(),
    previousSecret: current.secret,
    previousSecretExpiresAt,
    updatedAt: new Date(nowMs).toISOString(),
  });
  return { secret: saved.secret, previousSecretExpiresAt };
}

/** Sends a `test.ping` event to one endpoint (even a disabled one: testing it is how a user checks a fix). */
export async function sendTestEvent(deps: EventDeps, ws: string, id: string): Promise<{ eventId: string; deliveryId: string }> {
  const endpoint = await getWebhookEndpoint(deps.db, deps.secrets, ws, id);
  const event = newEvent(ws, 'test.ping', { message: 'A test event from the voice agent platform.', endpointId: endpoint._id });
  await putEvent(deps.db, event);
  const delivery = await queueDelivery(deps, endpoint, event);
  return { eventId: event.id, deliveryId: delivery._id };
}

/** What a replay did: the deliveries made, and where to continue when it was cut short. */
export interface ReplayOutcome {
  readonly replayed: number;
  readonly deliveryIds: string[];
  /** Matching events were left out (the replay budget, or the {@link MAX_REPLAY_EVENTS} per request). */
  readonly truncated: boolean;
  /** When truncated: the `since` of a replay that continues with the first event left out. */
  readonly nextSince?: string;
}

/**
 * Delivers stored events to one endpoint again: one event by id (whatever its type), or every event of the
 * endpoint's types created in the range. Each is a new delivery with the event's own id, so a receiver that
 * de-duplicates by `webhook-id` sees it as the same event.
 *
 * Each replay is an outbound request per event that no call paid for, so replays are limited
 * (docs/webhooks.md, "Replay"): requests per endpoint and per workspace (429), and the deliveries they
 * make count against the endpoint's and the workspace's hourly budget. A range larger than what the
 * budget has left is cut short (`truncated`, with `nextSince`); a spent budget is a 429 until its window ends.
 */
export async function replayWebhookEvents(
  deps: EventDeps & Pick<Deps, 'config'>,
  ws: string,
  id: string,
  input: WebhookReplay,
  nowMs: number = Date.now(),
): Promise<ReplayOutcome> {
  const endpoint = await getWebhookEndpoint(deps.db, deps.secrets, ws, id);
  // A disabled endpoint would drop every replayed delivery; enabling it is the user's decision.
  if (endpoint.status !== 'enabled') throw new ConflictError('webhook_disabled', 'The endpoint is disabled; enable it (PATCH enabled: true) before replaying.');
  const policies = ratePolicies(deps.config);
  const endpointPartition = `${ws}#${endpoint._id}`;
  // The workspace's count first: a request it refuses takes nothing from the endpoint's.
  for (const [policy, partition] of [[policies['webhook-replay-workspace'], ws], [policies['webhook-replay'], endpointPartition]] as const) {
    const rate = await takeRate(deps.db, policy, partition, nowMs);
    if (!rate.allowed) throw new RateLimitedError(rate);
  }
  let matching: WebhookEvent[];
  let scanCutAt: string | undefined;
  if (input.eventId !== undefined) {
    const event = await findEvent(deps.db, ws, input.eventId);
    if (!event) throw new NotFoundError('Event');
    matching = [event];
  } else {
    const fromMs = Date.parse(input.since!);
    const toMs = input.until !== undefined ? Date.parse(input.until) : nowMs;
    const scanLimit = MAX_REPLAY_EVENTS * 4;
    const scanned = await eventsBetween(deps.db, ws, fromMs, toMs, scanLimit);
    matching = scanned.filter((e) => endpoint.eventTypes.includes(e.type));
    // The scan stopped at its limit: events after the last one read were not looked at.
    if (scanned.length >= scanLimit) scanCutAt = scanned.at(-1)!.createdAt;
  }
  const wanted = Math.min(matching.length, MAX_REPLAY_EVENTS);
  let granted = 0;
  if (wanted > 0) {
    const budget = await takeBudget(
      deps.db,
      [
        { policy: policies['webhook-replay-budget'], partition: endpointPartition },
        { policy: policies['webhook-replay-workspace-budget'], partition: ws },
      ],
      wanted,
      nowMs,
    );
    if (!budget.decision.allowed) throw new RateLimitedError(budget.decision);
    granted = budget.granted;
  }
  const deliveries = [];
  for (const event of matching.slice(0, granted)) deliveries.push(await queueDelivery(deps, endpoint, event));
  const nextSince = matching[granted]?.createdAt ?? scanCutAt;
  return { replayed: deliveries.length, deliveryIds: deliveries.map((d) => d._id), truncated: nextSince !== undefined, ...(nextSince ? { nextSince } : {}) };
}

/** The workspace's event settings. */
export async function webhookSettings(db: Db, ws: string): Promise<{ creditsLowThreshold: number | null }> {
  const state = await readCreditsState(db, ws);
  return { creditsLowThreshold: state.lowThreshold ?? null };
}

/** Sets the workspace's event settings (the low-credits alert is armed again). */
export async function changeWebhookSettings(db: Db, ws: string, input: WebhookSettingsUpdate): Promise<{ creditsLowThreshold: number | null }> {
  await setLowCreditsThreshold(db, ws, input.creditsLowThreshold);
  return { creditsLowThreshold: input.creditsLowThreshold };
}

/** Deletes the workspace's webhook endpoint (404 if it has none by that id). */
export const removeWebhookEndpoint = (db: Db, ws: string, id: string): Promise<void> => deleteWebhookEndpoint(db, ws, id);

/** An endpoint's delivery log: 404 for an endpoint that is not the workspace's, rather than an empty log. */
export async function listEndpointDeliveries(
  deps: Pick<Deps, 'db' | 'secrets'>,
  ws: string,
  id: string,
  req: Parameters<typeof listDeliveries>[3],
): ReturnType<typeof listDeliveries> {
  await getWebhookEndpoint(deps.db, deps.secrets, ws, id);
  return listDeliveries(deps.db, ws, id, req);
}
