import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps, withTelephony } from '../../lib/deps.js';
import { DispatchMessage } from '../../lib/domain/call.js';
import { describeError, log, setLogLevel } from '../../lib/http/log.js';
import { dispatchCall } from '../../lib/services/dispatch.js';
import { createTwilioTelephony } from '../../lib/vendors/telephony/twilio.js';

/**
 * The call-dispatch queue consumer (SQS event source with ReportBatchItemFailures). Each record is
 * handled on its own: a malformed message is dropped (retrying cannot fix it), a record that should be
 * retried is reported in `batchItemFailures`, so SQS redelivers only that one and, after the queue's
 * maxReceiveCount, moves it to the dead letters.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = withTelephony(await getDeps(), createTwilioTelephony);
  setLogLevel(deps.config.LOG_LEVEL);
  const results = await Promise.all(
    event.Records.map(async (record) => {
      let body: unknown;
      try {
        body = JSON.parse(record.body);
      } catch {
        body = undefined;
      }
      const message = DispatchMessage.safeParse(body);
      if (!message.success) {
        log('error', 'dispatch: malformed message dropped', { messageId: record.messageId });
        return undefined;
      }
      try {
        const receiveCount = Number(record.attributes.ApproximateReceiveCount) || 1;
        return (await dispatchCall(deps, message.data, receiveCount)) === 'retry' ? record.messageId : undefined;
      } catch (error) {
        log('error', 'dispatch: unexpected error', { messageId: record.messageId, ...describeError(error) });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: results.filter((id): id is string => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
