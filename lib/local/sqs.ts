import type { Server } from 'node:http';
import { createSqsServer } from 'local-aws-sqs';
import { freePort } from './ports.js';

export interface LocalSqs {
  readonly endpoint: string;
  readonly queueUrl: string;
  readonly deadLetterQueueUrl: string;
  stop(): Promise<void>;
}

/** Receives before a message moves to the dead-letter queue, as in the CDK stack. */
export const MAX_RECEIVE_COUNT = 3;

/** Starts an SQS-protocol server with the dispatch queue and its dead-letter queue (in memory). */
export async function startSqsLocal(queueName: string): Promise<LocalSqs> {
  const port = await freePort();
  const dlqName = `${queueName}-dlq`;
  const server: Server = await createSqsServer({
    port,
    hostname: '127.0.0.1',
    emulateQueueCreationLifecycle: false,
    queues: [
      { QueueName: dlqName },
      {
        QueueName: queueName,
        Attributes: {
          // Longer than dispatch takes to place a call, so a slow dial is not delivered twice.
          VisibilityTimeout: '60',
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:${dlqName}`,
            maxReceiveCount: MAX_RECEIVE_COUNT,
          }),
        },
      },
    ],
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    queueUrl: `${endpoint}/123456789012/${queueName}`,
    deadLetterQueueUrl: `${endpoint}/123456789012/${dlqName}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
