import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '../../lib/deps.js';
import { DeliveryMessage } from '../../lib/domain/webhook.js';
import { describeError, log, setLogLevel } from '../../lib/http/log.js';
import { deliverAttempt } from '../../lib/services/webhook-delivery.js';

/**
 * The webhook-delivery queue consumer (SQS event source with ReportBatchItemFailures). Each record is one
 * attempt of one delivery; retries are new messages the attempt queues itself (with their backoff), so a
 * record fails here only on our own errors (the table, the queue), and SQS redelivers it and finally moves
 * it to the dead letters.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = await getDeps();
  setLogLevel(deps.config.LOG_LEVEL);
  const failed = await Promise.all(
    event.Records.map(async (record) => {
      let body: unknown;
      try {
        body = JSON.parse(record.body);
      } catch {
        body = undefined;
      }
      const message = DeliveryMessage.safeParse(body);
      if (!message.success) {
        log('error', 'webhooks: malformed message dropped', { messageId: record.messageId });
        return undefined;
      }
      try {
        await deliverAttempt(deps, message.data);
        return undefined;
      } catch (error) {
        log('error', 'webhooks: attempt failed on our side', { messageId: record.messageId, ...describeError(error) });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: failed.filter((id): id is string => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
