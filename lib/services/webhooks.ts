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
  type WebhookEndpointUpdate,
  type WebhookReplay,
  type WebhookSettingsUpdate,
} from '../domain/webhook.js';
import { assertWebhookUrl, type WebhookUrlPolicy } from '../domain/webhook-url.js';
import { countOf } from '../store/collection.js';
import { readCreditsState, setLowCreditsThreshold } from '../store/credits.js';
import type { Db } from '../store/dynamo.js';
import {
  eventsBetween,
  findEvent,
  getWebhookEndpoint,
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

/**
 * Delivers stored events to one endpoint again: one event by id (whatever its type), or every event of the
 * endpoint's types created in the range. Each is a new delivery with the event's own id, so a receiver that
 * de-duplicates by `webhook-id` sees it as the same event.
 */
export async function replayWebhookEvents(
  deps: EventDeps,
  ws: string,
  id: string,
  input: WebhookReplay,
): Promise<{ replayed: number; deliveryIds: string[] }> {
  const endpoint = await getWebhookEndpoint(deps.db, deps.secrets, ws, id);
  // A disabled endpoint would drop every replayed delivery; enabling it is the user's decision.
  if (endpoint.status !== 'enabled') throw new ConflictError('webhook_disabled', 'The endpoint is disabled; enable it (PATCH enabled: true) before replaying.');
  let events;
  if (input.eventId !== undefined) {
    const event = await findEvent(deps.db, ws, input.eventId);
    if (!event) throw new NotFoundError('Event');
    events = [event];
  } else {
    const fromMs = Date.parse(input.since!);
    const toMs = input.until !== undefined ? Date.parse(input.until) : Date.now();
    events = (await eventsBetween(deps.db, ws, fromMs, toMs, MAX_REPLAY_EVENTS * 4))
      .filter((e) => endpoint.eventTypes.includes(e.type))
      .slice(0, MAX_REPLAY_EVENTS);
  }
  const deliveries = [];
  for (const event of events) deliveries.push(await queueDelivery(deps, endpoint, event));
  return { replayed: deliveries.length, deliveryIds: deliveries.map((d) => d._id) };
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
