import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { describeError, log } from '../observability/log.js';

/**
 * One SQS batch (an event source with ReportBatchItemFailures), each record on its own: a malformed message
 * is dropped (retrying cannot fix it); a record whose handler says `retry` or throws is reported in
 * `batchItemFailures`, so SQS redelivers only that one and, after the queue's maxReceiveCount, moves it to
 * the dead letters.
 */
export async function consumeBatch<S extends z.ZodType>(
  event: SQSEvent,
  queue: string,
  schema: S,
  handle: (message: z.infer<S>, record: SQSRecord) => Promise<'retry' | undefined | void>,
): Promise<SQSBatchResponse> {
  const failed = await Promise.all(
    event.Records.map(async (record) => {
      let body: unknown;
      try {
        body = JSON.parse(record.body);
      } catch {
        body = undefined;
      }
      const message = schema.safeParse(body);
      if (!message.success) {
        log('error', `${queue}: malformed message dropped`, { messageId: record.messageId });
        return undefined;
      }
      try {
        return (await handle(message.data, record)) === 'retry' ? record.messageId : undefined;
      } catch (error) {
        log('error', `${queue}: unexpected error`, { messageId: record.messageId, ...describeError(error) });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: failed.filter((id): id is string => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
