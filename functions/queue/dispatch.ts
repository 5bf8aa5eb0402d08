import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps, withTelephony } from '../../lib/deps.js';
import { DispatchMessage } from '../../lib/domain/call.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { consumeBatch } from '../../lib/http/sqs-batch.js';
import { dispatchCall } from '../../lib/services/dispatch.js';
import { createTwilioCalls } from '../../lib/vendors/telephony/twilio-calls.js';

/** The call-dispatch queue consumer: a dispatch that should be tried again is redelivered by SQS. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = withTelephony(await getDeps(), createTwilioCalls);
  setLogLevel(deps.config.LOG_LEVEL);
  return consumeBatch(event, 'dispatch', DispatchMessage, async (message, record) => {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount) || 1;
    return (await dispatchCall(deps, message, receiveCount)) === 'retry' ? 'retry' : undefined;
  });
}
