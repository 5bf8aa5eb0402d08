import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '../../lib/deps.js';
import { DeliveryMessage } from '../../lib/domain/webhook.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { consumeBatch } from '../../lib/http/sqs-batch.js';
import { deliverAttempt } from '../../lib/services/webhook-delivery.js';

/**
 * The webhook-delivery queue consumer. Each record is one attempt of one delivery; retries are new messages
 * the attempt queues itself (with their backoff), so a record fails here only on our own errors (the table,
 * the queue), and SQS redelivers it and finally moves it to the dead letters.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = await getDeps();
  setLogLevel(deps.config.LOG_LEVEL);
  return consumeBatch(event, 'webhooks', DeliveryMessage, async (message) => {
    await deliverAttempt(deps, message);
  });
}
