import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.js';
import type { DispatchMessage } from '../domain/call.js';

/**
 * The call-dispatch queue port: the API sends one message per call; the dispatcher Lambda (or, locally,
 * lib/local/queue-poller.ts) consumes it. The client is built once per cold start.
 */
export interface DispatchQueue {
  /** Sends one dispatch message; resolves with SQS's message id. */
  send(message: DispatchMessage): Promise<string>;
}

/** The SQS client the platform uses (local-aws-sqs locally through SQS_ENDPOINT, SQS on AWS). */
export function createSqsClient(config: Pick<Config, 'AWS_REGION' | 'SQS_ENDPOINT'>): SQSClient {
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
      const out = await client.send(new SendMessageCommand({ QueueUrl: config.DISPATCH_QUEUE_URL, MessageBody: JSON.stringify(message) }));
      return out.MessageId ?? '';
    },
  };
}
