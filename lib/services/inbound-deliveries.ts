import type { Deps } from '../deps.js';
import type { Page } from '../domain/common.js';
import type { InboundDeliveryView } from '../domain/inbound-delivery.js';
import type { WebhookDelivery } from '../domain/webhook.js';
import type { PageRequest } from '../store/dynamo.js';
import { getPhoneNumber } from '../store/phone-numbers.js';
import { listDeliveries } from '../store/webhooks.js';

/**
 * A number's inbound webhook answers, newest first (docs/telephony.md, "Inbound webhook"): the `call.inbound`
 * deliveries logged under the number's id, each with what it did with the call.
 */
export async function listInboundDeliveries(deps: Pick<Deps, 'db'>, ws: string, numberId: string, req: PageRequest): Promise<Page<InboundDeliveryView>> {
  // Another workspace's number, or none, is a 404 before its log is read.
  await getPhoneNumber(deps.db, ws, numberId);
  const page = await listDeliveries(deps.db, ws, numberId, req);
  return { ...page, data: page.data.map(toView) };
}

function toView(d: WebhookDelivery): InboundDeliveryView {
  const attempt = d.attempts[0];
  return {
    _id: d._id,
    eventId: d.eventId,
    callId: d.inbound?.callId ?? '',
    // Every ask logs its answer's use; only a delivery without one (none is written so) reads from its status.
    outcome: d.inbound?.outcome ?? (d.status === 'succeeded' ? 'routed' : 'fallback'),
    ...(d.inbound?.agentId && { agentId: d.inbound.agentId }),
    ...(d.inbound?.reason && { reason: d.inbound.reason }),
    ...(attempt?.status !== undefined && { status: attempt.status }),
    latencyMs: Math.round(attempt?.latencyMs ?? 0),
    ...(attempt?.responseExcerpt && { responseExcerpt: attempt.responseExcerpt }),
    createdAt: d.createdAt,
  };
}
