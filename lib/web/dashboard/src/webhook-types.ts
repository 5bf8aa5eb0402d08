import type { Schemas } from './api.js';

/** What the webhook routes answer, as the OpenAPI document types it. */

export type Endpoint = Schemas['WebhookEndpoint'];
export type Delivery = Schemas['WebhookDelivery'];
export type EventType = Endpoint['eventTypes'][number];

/**
 * Every event type, in the order the page lists them. A record over the schema's enum, so the compiler
 * fails when the API adds or drops one; test/unit/dashboard-helpers.test.ts checks it against the API too.
 */
const LISTED: Record<EventType, number> = {
  'call.started': 0,
  'call.ended': 1,
  'call.analyzed': 2,
  'call.transfer': 3,
  'call.handoff': 4,
  'contacts.import.completed': 5,
  'phone_number.released': 6,
  'credits.low': 7,
  'webhook.disabled': 8,
  'test_run.completed': 9,
  'test.ping': 10,
};
export const EVENT_TYPES: readonly EventType[] = (Object.keys(LISTED) as EventType[]).sort((a, b) => LISTED[a] - LISTED[b]);
