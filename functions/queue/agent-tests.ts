import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '../../lib/deps.js';
import { RunMessage } from '../../lib/domain/agent-test.js';
import { consumeBatch } from '../../lib/http/sqs-batch.js';
import { setLogLevel } from '../../lib/observability/log.js';
import { playRun } from '../../lib/services/agent-test-runner.js';

/**
 * The agent-test run queue consumer (docs/agent-tests.md): each record is one run to play. A scenario's own
 * problems end as its `error` result; a record fails here only on our own errors, so SQS redelivers it.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deps = await getDeps();
  setLogLevel(deps.config.LOG_LEVEL);
  return consumeBatch(event, 'agent-tests', RunMessage, async (message, record) => {
    await playRun(deps, message, {}, Number(record.attributes.ApproximateReceiveCount) || 1);
  });
}
