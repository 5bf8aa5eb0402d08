import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/**
 * What Lambda's SQS event source does, for `npm start` and the tests: long-polls a queue, hands each batch
 * to the consumer's own handler module as an `SQSEvent`, and deletes the records the handler did not list
 * in `batchItemFailures`. Failed records stay on the queue and come back after its visibility timeout;
 * after maxReceiveCount the queue's redrive policy moves them to the dead letters. The handler's code path
 * is exactly the Lambda's.
 */
export interface QueuePollerOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
  /** The consumer, e.g. the `handler` of functions/queue/dispatch.ts. */
  readonly handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>;
  /** Lambda's default batch size for SQS is 10 (also SQS's receive maximum). */
  readonly batchSize?: number;
  /**
   * Long-poll wait. Short enough that stopping is quick, long enough not to spin: SQS's own range is 0-20 s,
   * and 2 s keeps an idle local platform nearly silent.
   */
  readonly waitSeconds?: number;
  /** Called with anything that went wrong outside the handler (the handler's own errors fail its batch). */
  readonly onError?: (error: unknown) => void;
  /**
   * Batches handled at once, as Lambda runs up to its event source's `maxConcurrency` invocations: while
   * one batch waits on something slow (a webhook receiver taking its time), the next messages are received
   * and handled beside it. Default 1 (one batch after the other).
   */
  readonly concurrency?: number;
}

export interface QueuePoller {
  stop(): Promise<void>;
}

const DEFAULTS = { batchSize: 10, waitSeconds: 2, concurrency: 1 } as const;

function toRecord(queueUrl: string, m: Message): SQSRecord {
  const a = m.Attributes ?? {};
  const name = queueUrl.split('/').pop() ?? 'queue';
  return {
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:123456789012:${name}`,
    awsRegion: 'us-east-1',
  };
}

/** Starts polling; `stop()` ends the loop and waits for the batches in hand. */
export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  const { client, queueUrl, handler } = options;
  const batchSize = options.batchSize ?? DEFAULTS.batchSize;
  const waitSeconds = options.waitSeconds ?? DEFAULTS.waitSeconds;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
  const abort = new AbortController();
  let running = true;
  const inFlight = new Set<Promise<void>>();

  const receive = async (max: number, wait: number): Promise<Message[]> => {
    const out = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: wait,
        // local-aws-sqs reads the older AttributeNames parameter, not MessageSystemAttributeNames.
        AttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    return out.Messages ?? [];
  };

  /** One batch through the handler, then the records it did not fail deleted. */
  const handle = async (records: SQSRecord[]): Promise<void> => {
    let failed: Set<string>;
    try {
      const result = await handler({ Records: records });
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      // As on Lambda: a handler that throws fails the whole batch.
      options.onError?.(error);
      failed = new Set(records.map((r) => r.messageId));
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length > 0) {
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
        }),
      );
    }
  };

  const loop = async () => {
    while (running) {
      try {
        // At most `concurrency` batches in hand: wait for one to finish before receiving more.
        while (inFlight.size >= concurrency) await Promise.race(inFlight);
        if (!running) break;
        // local-aws-sqs answers a long poll only once it holds MaxNumberOfMessages or the wait is over, where
        // SQS (and Lambda's poller) answers as soon as a message is there. So: a long poll for one message,
        // then a short poll for the rest of the batch, which is what Lambda hands over with no batching window.
        const first = await receive(1, waitSeconds);
        if (first.length === 0) continue;
        const rest = batchSize > 1 ? await receive(batchSize - 1, 0) : [];
        // local-aws-sqs's long poll can return one message twice in a response (SQS never does): keep the
        // last copy, whose receipt handle is current. The consumer is idempotent either way.
        const messages = [...new Map([...first, ...rest].map((m) => [m.MessageId, m])).values()];
        if (messages.length === 0) continue;
        const batch = handle(messages.map((m) => toRecord(queueUrl, m))).catch((error: unknown) => options.onError?.(error));
        inFlight.add(batch);
        void batch.finally(() => inFlight.delete(batch));
        if (concurrency === 1) await batch;
      } catch (error) {
        if (!running) break;
        options.onError?.(error);
        // The queue server is restarting or gone: back off instead of spinning.
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const done = loop();
  return {
    async stop() {
      running = false;
      abort.abort();
      await done;
      await Promise.all(inFlight);
    },
  };
}

/**
 * The dispatch consumer of `npm start`: polls DISPATCH_QUEUE_URL (from the environment the platform set)
 * and runs functions/queue/dispatch.ts, the module the CDK stack deploys as the queue's Lambda.
 */
export async function startDispatchPoller(onError: (error: unknown) => void = () => undefined): Promise<QueuePoller> {
  const [{ loadConfig }, { createSqsClient }, { handler }] = await Promise.all([
    import('../../config.js'),
    import('../../store/queue.js'),
    import('../../../functions/queue/dispatch.js'),
  ]);
  const config = loadConfig();
  if (!config.DISPATCH_QUEUE_URL) throw new Error('DISPATCH_QUEUE_URL is not set');
  return startQueuePoller({ client: createSqsClient(config), queueUrl: config.DISPATCH_QUEUE_URL, handler, onError });
}

/**
 * The webhook-delivery consumer of `npm start`: polls WEBHOOK_QUEUE_URL and runs functions/queue/webhooks.ts,
 * the module the CDK stack deploys as that queue's Lambda.
 */
export async function startWebhookPoller(onError: (error: unknown) => void = () => undefined): Promise<QueuePoller> {
  const [{ loadConfig }, { createSqsClient, WEBHOOK_QUEUE_SETTINGS }, { handler }] = await Promise.all([
    import('../../config.js'),
    import('../../store/queue.js'),
    import('../../../functions/queue/webhooks.js'),
  ]);
  const config = loadConfig();
  if (!config.WEBHOOK_QUEUE_URL) throw new Error('WEBHOOK_QUEUE_URL is not set');
  // Short polls: a delivery's latency from call end is a target (p50 under 1 s locally, docs/benchmarks.md).
  // Batches side by side, as the Lambda's event source runs them: a slow receiver holds its own batch only.
  return startQueuePoller({
    client: createSqsClient(config),
    queueUrl: config.WEBHOOK_QUEUE_URL,
    handler,
    onError,
    waitSeconds: 1,
    concurrency: WEBHOOK_QUEUE_SETTINGS.consumerConcurrency,
  });
}

/**
 * The knowledge-ingestion consumer of `npm start`: polls KNOWLEDGE_QUEUE_URL and runs
 * functions/queue/knowledge.ts, the module the CDK stack deploys as that queue's Lambda.
 */
export async function startKnowledgePoller(onError: (error: unknown) => void = () => undefined): Promise<QueuePoller> {
  const [{ loadConfig }, { createSqsClient }, { handler }] = await Promise.all([
    import('../../config.js'),
    import('../../store/queue.js'),
    import('../../../functions/queue/knowledge.js'),
  ]);
  const config = loadConfig();
  if (!config.KNOWLEDGE_QUEUE_URL) throw new Error('KNOWLEDGE_QUEUE_URL is not set');
  // Short polls: a document is usually waited for on the dashboard; two batches side by side on two cores.
  return startQueuePoller({ client: createSqsClient(config), queueUrl: config.KNOWLEDGE_QUEUE_URL, handler, onError, waitSeconds: 1, batchSize: 1, concurrency: 2 });
}

/**
 * The agent-test run consumer of `npm start`: polls AGENT_TEST_QUEUE_URL and runs
 * functions/queue/agent-tests.ts, the module the CDK stack deploys as that queue's Lambda.
 */
export async function startAgentTestPoller(onError: (error: unknown) => void = () => undefined): Promise<QueuePoller> {
  const [{ loadConfig }, { createSqsClient, AGENT_TEST_QUEUE_SETTINGS }, { handler }] = await Promise.all([
    import('../../config.js'),
    import('../../store/queue.js'),
    import('../../../functions/queue/agent-tests.js'),
  ]);
  const config = loadConfig();
  if (!config.AGENT_TEST_QUEUE_URL) throw new Error('AGENT_TEST_QUEUE_URL is not set');
  // Short polls: a run is usually waited for (the CLI, a CI job); runs side by side as on Lambda.
  return startQueuePoller({ client: createSqsClient(config), queueUrl: config.AGENT_TEST_QUEUE_URL, handler, onError, waitSeconds: 1, batchSize: 1, concurrency: AGENT_TEST_QUEUE_SETTINGS.consumerConcurrency });
}
