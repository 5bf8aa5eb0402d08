import type { Deps } from '../deps.js';
import { newId } from '../domain/ids.js';
import type { DeliveryMessage, WebhookDelivery, WebhookEndpoint, WebhookEvent, WebhookEventType } from '../domain/webhook.js';
import { describeError, log } from '../observability/log.js';
import { allWebhookEndpoints, putEvent, putNewDelivery } from '../store/webhooks.js';

/**
 * Publishing events (docs/webhooks.md): an event is stored once (for replay), then one delivery per
 * subscribed, enabled endpoint is written and queued. The queue consumer (functions/queue/webhooks.ts) makes
 * the attempts. A workspace without endpoints costs one query and nothing is stored.
 */

export type EventDeps = Pick<Deps, 'db' | 'secrets' | 'webhooks'>;

/** Whether an endpoint takes events of this type. `test.ping` is sent to one endpoint on request only. */
export const subscribes = (endpoint: WebhookEndpoint, type: WebhookEventType): boolean =>
  endpoint.status === 'enabled' && type !== 'test.ping' && endpoint.eventTypes.includes(type);

/** A new event envelope. */
export function newEvent(workspaceId: string, type: WebhookEventType, data: Record<string, unknown>, atMs: number = Date.now()): WebhookEvent {
  return { id: newId('event', atMs), type, createdAt: new Date(atMs).toISOString(), workspaceId, data };
}

/** Writes a delivery of `event` to `endpoint` and queues its first attempt. */
export async function queueDelivery(deps: EventDeps, endpoint: WebhookEndpoint, event: WebhookEvent): Promise<WebhookDelivery> {
  const now = new Date().toISOString();
  const delivery: WebhookDelivery = {
    _id: newId('delivery'),
    endpointId: endpoint._id,
    workspaceId: endpoint.workspaceId,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    createdAt: now,
    updatedAt: now,
  };
  await putNewDelivery(deps.db, delivery);
  const message: DeliveryMessage = { workspaceId: endpoint.workspaceId, endpointId: endpoint._id, deliveryId: delivery._id, eventId: event.id, attempt: 1 };
  await deps.webhooks.send(message);
  return delivery;
}

/**
 * Publishes one event to every endpoint of the workspace that subscribes to its type. Returns the event, or
 * undefined when no endpoint wanted it (then nothing was stored).
 */
export async function publishEvent(
  deps: EventDeps,
  workspaceId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<WebhookEvent | undefined> {
  const endpoints = (await allWebhookEndpoints(deps.db, deps.secrets, workspaceId)).filter((e) => subscribes(e, type));
  if (endpoints.length === 0) return undefined;
  const event = newEvent(workspaceId, type, data);
  await putEvent(deps.db, event);
  await Promise.all(endpoints.map((endpoint) => queueDelivery(deps, endpoint, event)));
  return event;
}

/**
 * {@link publishEvent} for code paths whose own work must not fail because of webhooks (a call's end, a
 * number's release): a failure is logged with the event type, never thrown.
 */
export async function announce(deps: EventDeps, workspaceId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
  try {
    await publishEvent(deps, workspaceId, type, data);
  } catch (error) {
    log('error', 'webhook event not published', { workspaceId, type, ...describeError(error) });
  }
}
