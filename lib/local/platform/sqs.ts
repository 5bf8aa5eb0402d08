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

/** A work queue and its dead letters (idempotent), named `<table>-<suffix>`, with the CDK stack's settings. */
async function ensureWorkQueue(endpoint: string, table: string, suffix: string, settings: { readonly visibilityTimeoutSeconds: number; readonly maxReceiveCount: number }): Promise<{ queueUrl: string; deadLetterQueueUrl: string }> {
  const client = createSqsClient({ AWS_REGION: 'us-east-1', SQS_ENDPOINT: endpoint });
  const name = `${table}-${suffix}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 70);
  try {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: `arn:aws:sqs:us-east-1:123456789012:${name}-dlq`, maxReceiveCount: settings.maxReceiveCount }),
        },
      }),
    );
    return { queueUrl: queue.QueueUrl!, deadLetterQueueUrl: dlq.QueueUrl! };
  } finally {
    client.destroy();
  }
}

/** The knowledge-ingestion queue (lib/store/queue.ts, KNOWLEDGE_QUEUE_SETTINGS), named per table like the webhook queue. */
export const ensureKnowledgeQueue = (endpoint: string, table: string) => ensureWorkQueue(endpoint, table, 'knowledge', KNOWLEDGE_QUEUE_SETTINGS);

/** The agent-test run queue (lib/store/queue.ts, AGENT_TEST_QUEUE_SETTINGS), named per table. */
export const ensureAgentTestQueue = (endpoint: string, table: string) => ensureWorkQueue(endpoint, table, 'agent-tests', AGENT_TEST_QUEUE_SETTINGS);
