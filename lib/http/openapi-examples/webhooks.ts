import type { OperationId } from '../../infra/routes.js';
import { CREATED, EXAMPLE_IDS, page, UPDATED, WS, type OperationExamples } from './shared.js';

const webhookEndpointView = {
  _id: EXAMPLE_IDS.webhookEndpoint,
  url: 'https://crm.example.com/hooks/voice-agents',
  description: 'CRM: log every call and its outcome',
  eventTypes: ['call.ended', 'call.analyzed'],
  status: 'enabled',
  workspaceId: WS,
  createdAt: CREATED,
  updatedAt: UPDATED,
};

/** A made-up secret in the Standard Webhooks form (`whsec_` + base64 of 32 bytes). */
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3qkqTMvdaMw=';
const webhookDelivery = {
  _id: EXAMPLE_IDS.delivery,
  endpointId: EXAMPLE_IDS.webhookEndpoint,
  eventId: EXAMPLE_IDS.event,
  eventType: 'call.ended',
  status: 'succeeded',
  attempts: [
    { at: '2025-06-02T14:04:47.120Z', status: 503, latencyMs: 212, responseExcerpt: '{"error":"maintenance"}' },
    { at: '2025-06-02T14:04:52.701Z', status: 200, latencyMs: 87, responseExcerpt: '{"ok":true}' },
  ],
  createdAt: '2025-06-02T14:04:47.090Z',
  updatedAt: '2025-06-02T14:04:52.788Z',
};

export const WEBHOOK_EXAMPLES: Partial<Record<OperationId, OperationExamples>> = {
  createWebhookEndpoint: {
    request: { url: webhookEndpointView.url, description: webhookEndpointView.description, eventTypes: webhookEndpointView.eventTypes },
    response: { ...webhookEndpointView, updatedAt: CREATED, secret: WEBHOOK_SECRET },
  },
  listWebhookEndpoints: { response: page(webhookEndpointView) },
  getWebhookSettings: { response: { creditsLowThreshold: 20 } },
  updateWebhookSettings: { request: { creditsLowThreshold: 20 }, response: { creditsLowThreshold: 20 } },
  getWebhookEndpoint: { params: { id: EXAMPLE_IDS.webhookEndpoint }, response: webhookEndpointView },
  updateWebhookEndpoint: {
    params: { id: EXAMPLE_IDS.webhookEndpoint },
    request: { eventTypes: ['call.ended', 'call.analyzed', 'call.transfer'] },
    response: { ...webhookEndpointView, eventTypes: ['call.ended', 'call.analyzed', 'call.transfer'] },
  },
  deleteWebhookEndpoint: { params: { id: EXAMPLE_IDS.webhookEndpoint } },
  rotateWebhookSecret: {
    params: { id: EXAMPLE_IDS.webhookEndpoint },
    response: { secret: 'whsec_3q2+7wAAAAB0ZXN0LXNlY3JldC1yb3RhdGVkLWtleS0wMQ==', previousSecretExpiresAt: '2025-06-03T15:20:45.000Z' },
  },
  sendWebhookTest: { params: { id: EXAMPLE_IDS.webhookEndpoint }, response: { eventId: EXAMPLE_IDS.event, deliveryId: EXAMPLE_IDS.delivery } },
  replayWebhookEvents: {
    params: { id: EXAMPLE_IDS.webhookEndpoint },
    request: { since: '2025-06-02T00:00:00Z', until: '2025-06-02T23:59:59Z' },
    response: { replayed: 1, deliveryIds: [EXAMPLE_IDS.delivery], truncated: false },
  },
  listWebhookDeliveries: { params: { id: EXAMPLE_IDS.webhookEndpoint }, response: page(webhookDelivery) },
};
