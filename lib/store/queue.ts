import type { SQSClient } from '@aws-sdk/client-sqs';
import { lazySdk } from './lazy-sdk.js';
import type { Config } from '../config.js';
import type { DispatchMessage } from '../domain/call.js';
import type { DeliveryMessage } from '../domain/webhook.js';
import type { IngestMessage } from '../domain/knowledge/schema.js';
import type { RunMessage } from '../domain/agent-test.js';

/**
 * The call-dispatch queue port: the API sends one message per call; the dispatcher Lambda (or, locally,
 * lib/local/platform/queue-poller.ts) consumes it. The client is built once per cold start.
 */
export interface DispatchQueue {
  /** Sends one dispatch message; resolves with SQS's message id. */
  send(message: DispatchMessage): Promise<string>;
}

/** The SQS client the platform uses (local-aws-sqs locally through SQS_ENDPOINT, SQS on AWS). */
/** Loaded on first use: most handlers never send, and the client is no part of their cold start (lib/infra/bundling.ts). */
const sqs = lazySdk<typeof import('@aws-sdk/client-sqs')>('@aws-sdk/client-sqs');

export function createSqsClient(config: Pick<Config, 'AWS_REGION' | 'SQS_ENDPOINT'>): SQSClient {
  const { SQSClient } = sqs();
  return new SQSClient({
    region: config.AWS_REGION,
    ...(config.SQS_ENDPOINT
      ? { endpoint: config.SQS_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    // A stuck connection must not hold an API request for the Lambda's whole budget.
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });
}

export function createDispatchQueue(config: Pick<Config, 'AWS_REGION' | 'SQS_ENDPOINT' | 'DISPATCH_QUEUE_URL'>, client: SQSClient = createSqsClient(config)): DispatchQueue {
  return {
    async send(message) {
      // Checked at use, not at start: most handlers never send, and must not fail for a missing queue.
      if (!config.DISPATCH_QUEUE_URL) throw new Error('DISPATCH_QUEUE_URL is not set; calls cannot be dispatched');
      const out = await client.send(new (sqs().SendMessageCommand)({ QueueUrl: config.DISPATCH_QUEUE_URL, MessageBody: JSON.stringify(message) }));
      return out.MessageId ?? '';
    },
  };
}

/**
 * The webhook-delivery queue port: one message asks for one attempt of one delivery. SQS delays a message
 * at most 15 minutes; longer waits are carried in the message (`notBefore`) and the consumer sends it on.
 */
export interface WebhookQueue {
  /** Sends one message, visible after `delaySeconds` (0..900). */
  send(message: DeliveryMessage, delaySeconds?: number): Promise<void>;
  /** Parks a delivery that gave up in the dead letters, where an operator can inspect or redrive it. */
  sendToDeadLetters(message: DeliveryMessage): Promise<void>;
}

/**
 * The webhook queue's settings, shared by the CDK stack and the local queue (lib/local/platform/sqs.ts) so they agree.
 */
export const WEBHOOK_QUEUE_SETTINGS = {
  /** Longer than one attempt can take (its 10 s deadline, DNS lookup included, and the log write) and than the consumer's timeout. */
  visibilityTimeoutSeconds: 60,
  /**
   * Consumer batches run at once (the Lambda event source's maxConcurrency; the local poller's concurrency):
   * deliveries are I/O-bound, so ten batches of ten run a hundred attempts side by side, and a batch held by a
   * slow receiver (up to its deadline) leaves the others running.
   */
  consumerConcurrency: 10,
  /** Our own failures (table, queue) retried this often before the message is parked in the dead letters. */
  maxReceiveCount: 5,
  /** SQS's maximum: time to inspect and redrive deliveries that gave up. */
  deadLetterRetentionDays: 14,
} as const;

/** SQS's longest per-message delay. */
export const MAX_SQS_DELAY_SECONDS = 900;

export function createWebhookQueue(
  config: Pick<Config, 'AWS_REGION' | 'SQS_ENDPOINT' | 'WEBHOOK_QUEUE_URL' | 'WEBHOOK_DLQ_URL'>,
  client: SQSClient = createSqsClient(config),
): WebhookQueue {
  const sendTo = async (url: string | undefined, name: string, message: DeliveryMessage, delaySeconds = 0) => {
    // Checked at use, like the dispatch queue: most handlers never publish.
    if (!url) throw new Error(`${name} is not set; webhooks cannot be delivered`);
    const delay = Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    await client.send(new (sqs().SendMessageCommand)({ QueueUrl: url, MessageBody: JSON.stringify(message), ...(delay > 0 ? { DelaySeconds: delay } : {}) }));
  };
  return {
    send: (message, delaySeconds) => sendTo(config.WEBHOOK_QUEUE_URL, 'WEBHOOK_QUEUE_URL', message, delaySeconds),
    sendToDeadLetters: (message) => sendTo(config.WEBHOOK_DLQ_URL, 'WEBHOOK_DLQ_URL', message),
  };
}

/**
 * The knowledge-ingestion queue port: one message asks for one document revision to be indexed; the
 * consumer (functions/queue/knowledge.ts, on Lambda or polled by `npm start`) reads, chunks, embeds and
 * writes its segment, off the request path (docs/knowledge.md, "Ingestion").
 */
export interface KnowledgeQueue {
  send(message: IngestMessage): Promise<void>;
}

/** Shared by the CDK stack and the local queue so they agree. */
export const KNOWLEDGE_QUEUE_SETTINGS = {
  /** Six consumer timeouts (AWS's advice for Lambda consumers), so one document is never ingested twice at once. */
  visibilityTimeoutSeconds: 150,
  /**
   * The consumer Lambda's timeout: a 500-page PDF is read and chunked in about 3 s (bench/knowledge.ts) and
   * embedded in 16 requests of 128 chunks; under the 30 s every platform function stays within.
   */
  consumerTimeoutSeconds: 25,
  /** Our own failures (bucket, table, the embeddings vendor down) retried this often before the dead letters. */
  maxReceiveCount: 3,
} as const;

export function createKnowledgeQueue(config: Pick<Config, 'AWS_REGION' | 'SQS_ENDPOINT' | 'KNOWLEDGE_QUEUE_URL'>, client: SQSClient = createSqsClient(config)): KnowledgeQueue {
  return {
    async send(message) {
      if (!config.KNOWLEDGE_QUEUE_URL) throw new Error('KNOWLEDGE_QUEUE_URL is not set; documents cannot be ingested');
      await client.send(new (sqs().SendMessageCommand)({ QueueUrl: config.KNOWLEDGE_QUEUE_URL, MessageBody: JSON.stringify(message) }));
    },
  };
}

/** The agent-test run queue port: one message asks for one run to be played (docs/agent-tests.md). */
export interface AgentTestQueue {
  send(message: RunMessage): Promise<void>;
}

/** Shared by the CDK stack and the local queue so they agree. */
export const AGENT_TEST_QUEUE_SETTINGS = {
  /**
   * The consumer's timeout: a run of MAX_RUN_SCENARIOS chats of at most 20 lines, four at a time, each reply a
   * few seconds, stays within minutes; Lambda's 15-minute ceiling is the bound.
   */
  consumerTimeoutSeconds: 900,
  /** Longer than a run can take, so a run is never played twice at once (its runner also claims it). */
  visibilityTimeoutSeconds: 960,
  /** A run that failed for our own reasons is tried again once before the dead letters (it is marked `error` then). */
  maxReceiveCount: 2,
  /** Runs played at once across the platform (the Lambda event source's maxConcurrency; the local poller's). */
  consumerConcurrency: 4,
} as const;

export function createAgentTestQueue(config: Pick<Config, 'AWS_REGION' | 'SQS_ENDPOINT' | 'AGENT_TEST_QUEUE_URL'>, client: SQSClient = createSqsClient(config)): AgentTestQueue {
  return {
    async send(message) {
      if (!config.AGENT_TEST_QUEUE_URL) throw new Error('AGENT_TEST_QUEUE_URL is not set; test runs cannot be played');
      await client.send(new (sqs().SendMessageCommand)({ QueueUrl: config.AGENT_TEST_QUEUE_URL, MessageBody: JSON.stringify(message) }));
    },
  };
}
