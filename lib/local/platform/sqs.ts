import { CreateQueueCommand } from '@aws-sdk/client-sqs';
import type { Server } from 'node:http';
import { AGENT_TEST_QUEUE_SETTINGS, createSqsClient, KNOWLEDGE_QUEUE_SETTINGS, WEBHOOK_QUEUE_SETTINGS } from '../../store/queue.js';
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

const WEBHOOK_QUEUE = WEBHOOK_QUEUE_SETTINGS;

/**
 * Creates the webhook-delivery queue and its dead letters on a running SQS server (idempotent: CreateQueue
 * of an existing queue returns it). Named per table, so platforms sharing one SQS server (the tests) never
 * consume each other's deliveries.
 */
export async function ensureWebhookQueues(endpoint: string, table: string): Promise<{ queueUrl: string; deadLetterQueueUrl: string }> {
  const client = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: endpoint });
  const name = `${table}-webhooks`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 70);
  try {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(WEBHOOK_QUEUE.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:${name}-dlq`,
            maxReceiveCount: WEBHOOK_QUEUE.maxReceiveCount,
          }),
        },
      }),
    );
    return { queueUrl: queue.QueueUrl!, deadLetterQueueUrl: dlq.QueueUrl! };
  } finally {
    client.destroy();
  }
}

/**
 * Creates the knowledge-ingestion queue and its dead letters (idempotent), named per table like the webhook
 * queue, with the CDK stack's settings (lib/store/queue.ts, KNOWLEDGE_QUEUE_SETTINGS).
 */
export async function ensureKnowledgeQueue(endpoint: string, table: string): Promise<{ queueUrl: string; deadLetterQueueUrl: string }> {
  const client = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: endpoint });
  const name = `${table}-knowledge`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 70);
  try {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(KNOWLEDGE_QUEUE_SETTINGS.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:${name}-dlq`, maxReceiveCount: KNOWLEDGE_QUEUE_SETTINGS.maxReceiveCount }),
        },
      }),
    );
    return { queueUrl: queue.QueueUrl!, deadLetterQueueUrl: dlq.QueueUrl! };
  } finally {
    client.destroy();
  }
}

/**
 * Creates the agent-test run queue and its dead letters (idempotent), named per table, with the CDK stack's
 * settings (lib/store/queue.ts, AGENT_TEST_QUEUE_SETTINGS).
 */
export async function ensureAgentTestQueue(endpoint: string, table: string): Promise<{ queueUrl: string; deadLetterQueueUrl: string }> {
  const client = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: endpoint });
  const name = `${table}-agent-tests`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 70);
  try {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(AGENT_TEST_QUEUE_SETTINGS.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:${name}-dlq`, maxReceiveCount: AGENT_TEST_QUEUE_SETTINGS.maxReceiveCount }),
        },
      }),
    );
    return { queueUrl: queue.QueueUrl!, deadLetterQueueUrl: dlq.QueueUrl! };
  } finally {
    client.destroy();
  }
}
