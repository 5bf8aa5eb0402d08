/**
 * Invariant: the local poller behaves like Lambda's SQS event source with ReportBatchItemFailures: records
 * the handler does not list as failures are deleted; listed ones come back after the visibility timeout
 * with a higher receive count, and after maxReceiveCount the queue moves them to the dead letters.
 */
import { CreateQueueCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startQueuePoller, type QueuePoller } from '../../../lib/local/platform/queue-poller.js';
import { createSqsClient } from '../../../lib/store/queue.js';
import { eventually, receive } from '../../support/calls.js';
import { WAIT_MS } from '../../support/progress.js';

const sqs = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: inject('stores').sqs });
let poller: QueuePoller | undefined;
afterAll(async () => poller?.stop());

describe('startQueuePoller', () => {
  it('deletes successes, redelivers failures with a growing receive count, then dead-letters them', async () => {
    const name = `poller-${randomBytes(4).toString('hex')}`;
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          // One second, so the failing message comes back quickly in the test.
          VisibilityTimeout: '1',
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:${name}-dlq`, maxReceiveCount: 2 }),
        },
      }),
    );
    const seen: { body: string; receiveCount: string }[] = [];
    poller = startQueuePoller({
      client: sqs,
      queueUrl: queue.QueueUrl!,
      waitSeconds: 1,
      async handler(event: SQSEvent) {
        for (const r of event.Records) seen.push({ body: r.body, receiveCount: r.attributes.ApproximateReceiveCount });
        return { batchItemFailures: event.Records.filter((r) => r.body === 'fail').map((r) => ({ itemIdentifier: r.messageId })) };
      },
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl!, MessageBody: 'ok' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl!, MessageBody: 'fail' }));
    const dead = await eventually(async () => {
      const got = await receive(sqs, dlq.QueueUrl!, 30);
      return got.length > 0 ? got : undefined;
    }, WAIT_MS, 'the dead letter');
    await poller.stop();
    poller = undefined;
    expect(dead.map((m) => m.Body)).toEqual(['fail']);
    expect(seen.filter((s) => s.body === 'ok')).toHaveLength(1);
    // Redelivered until its receive count reached maxReceiveCount (local-aws-sqs may count a long poll's
    // duplicate copy as a receive, so the count can jump; it never goes past the maximum).
    const counts = seen.filter((s) => s.body === 'fail').map((s) => Number(s.receiveCount));
    expect(counts.at(-1)).toBe(2);
    expect([...counts].sort()).toEqual(counts);
  });
});
