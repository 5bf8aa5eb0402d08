import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { STREAM_SWEEP_EVERY_MS } from '../../domain/call.js';
import { GSI1 } from '../../store/model.js';
import type { PlatformFunction, PlatformFunctionProps } from './api-function.js';
import { bindAgentTestQueue, bindKnowledge, bindStreamSweep, bindTable, bindTwilioCredentials, bindWebhookQueue } from './bindings.js';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { AGENT_TEST_QUEUE_SETTINGS, KNOWLEDGE_QUEUE_SETTINGS } from '../../store/queue.js';
import { PDF_LIBS_FILE, PDF_LIBS_SOURCE } from '../../domain/knowledge/pdf.js';
import { EMBEDDINGS_LIBS_FILE, EMBEDDINGS_LIBS_SOURCE } from '../../vendors/embeddings/openai.js';
import { AGENT_TEST_LIBS_FILE, AGENT_TEST_LIBS_SOURCE } from '../../services/agent-test-libs-load.js';
import { CampaignScheduler } from './campaign-scheduler.js';
import { CONSUMER_TIMEOUT, DISPATCH_QUEUE, KNOWLEDGE_CONSUMER_MAX_CONCURRENCY, WEBHOOK_CONSUMER_MAX_CONCURRENCY, type PlatformQueues } from './storage.js';

/** Built beside the agent-test consumer's bundle: what a model persona and a voice scenario load. */
export const AGENT_TEST_CONSUMER_MODULES = [{ from: AGENT_TEST_LIBS_SOURCE, to: AGENT_TEST_LIBS_FILE }] as const;

/** What the functions beyond the routes are bound to, and how the stack makes a function in a scope. */
export interface BackgroundFunctionsProps extends Pick<PlatformQueues, 'dispatchQueue' | 'webhookQueue' | 'webhookDeadLetters' | 'knowledgeQueue' | 'agentTestQueue'> {
  readonly table: dynamodb.TableV2;
  /** The bucket: knowledge sources and segments live under `workspaces/*` (docs/knowledge.md). */
  readonly bucket: s3.IBucket;
  readonly twilioCredentials: secretsmanager.ISecret;
  readonly newFunction: (scope: Construct, id: string, props: PlatformFunctionProps) => PlatformFunction;
}

/** The queue consumers and the scheduled functions. */
export interface BackgroundFunctions {
  readonly dispatchConsumer: PlatformFunction;
  readonly streamSweep: PlatformFunction;
  readonly lostCallbacks: PlatformFunction;
  readonly campaignScheduler: CampaignScheduler;
  readonly webhookConsumer: PlatformFunction;
  readonly knowledgeConsumer: PlatformFunction;
  readonly agentTestConsumer: PlatformFunction;
}

/** The functions no route calls: the two queue consumers and the three timers, in the stack's scope. */
export function addBackgroundFunctions(scope: Construct, props: BackgroundFunctionsProps): BackgroundFunctions {
  const addFunction = (id: string, fnProps: PlatformFunctionProps) => props.newFunction(scope, id, fnProps);
  const { table, twilioCredentials, dispatchQueue, webhookQueue } = props;

  // Places queued calls. Its timeout stays well under the queue's visibility timeout, so a message is
  // never redelivered while its first receive is still dialing.
  const dispatchConsumer = addFunction('DispatchConsumer', {
    entry: 'functions/queue/dispatch.ts',
    // A Twilio create (10 s adapter timeout) plus a few table writes, with room; a sixth of the visibility.
    timeout: CONSUMER_TIMEOUT,
    environment: { DISPATCH_MAX_RECEIVE_COUNT: String(DISPATCH_QUEUE.maxReceiveCount) },
  });
  bindTable(dispatchConsumer, table, 'readWrite');
  bindTwilioCredentials(dispatchConsumer, twilioCredentials);
  // A call that cannot be placed ends unconnected, which announces call.ended.
  bindWebhookQueue(dispatchConsumer, webhookQueue);
  // Partial batch responses: one failing call is retried alone, not with the calls placed beside it.
  dispatchConsumer.function.addEventSource(
    new SqsEventSource(dispatchQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: DISPATCH_QUEUE.maxConcurrency }),
  );

  // Settles calls whose streaming container died (docs/calls.md, "Abandoned streams"), on a timer.
  const streamSweep = addFunction('AbandonedStreamSweep', {
    entry: 'functions/schedule/abandoned-streams.ts',
    // A run settles at most 200 calls at a few table writes each: seconds; a minute leaves room for throttling.
    timeout: Duration.seconds(60),
  });
  bindStreamSweep(streamSweep, table, GSI1);
  bindWebhookQueue(streamSweep, webhookQueue);
  new events.Rule(scope, 'AbandonedStreamSweepSchedule', {
    description: 'Settles calls whose media stream stopped beating (its container died)',
    schedule: events.Schedule.rate(Duration.millis(STREAM_SWEEP_EVERY_MS)),
    // A missed run is not retried: the next one, minutes later, does the same work.
    targets: [new eventTargets.LambdaFunction(streamSweep.function, { retryAttempts: 0 })],
  });

  // Ends dialed calls whose final status callback was lost (docs/calls.md, "Lost status callbacks"): a
  // sibling of the sweep, so the sweep's bundle stays without the Twilio SDK.
  const lostCallbacks = addFunction('LostCallbackReconciliation', {
    entry: 'functions/schedule/lost-callbacks.ts',
    // At most 100 Twilio fetches (10 s adapter timeout each, usually well under a second) and a few writes each.
    timeout: Duration.seconds(120),
  });
  bindStreamSweep(lostCallbacks, table, GSI1);
  bindTwilioCredentials(lostCallbacks, twilioCredentials);
  bindWebhookQueue(lostCallbacks, webhookQueue);
  new events.Rule(scope, 'LostCallbackReconciliationSchedule', {
    description: 'Ends dialed calls whose final Twilio status callback was lost (Twilio does not retry it)',
    schedule: events.Schedule.rate(Duration.millis(STREAM_SWEEP_EVERY_MS)),
    targets: [new eventTargets.LambdaFunction(lostCallbacks.function, { retryAttempts: 0 })],
  });

  // Dials campaigns' due contacts into the dispatch queue (docs/campaigns.md, "The scheduler").
  const campaignScheduler = new CampaignScheduler(scope, 'CampaignScheduler', {
    table,
    dispatchQueue,
    webhookQueue,
    newFunction: props.newFunction,
  });

  // Delivers webhooks, one attempt per message; retries are messages it queues itself with their delay.
  const webhookConsumer = addFunction('WebhookConsumer', {
    entry: 'functions/queue/webhooks.ts',
    // A batch runs its attempts in parallel, each at most 10 s in all (WEBHOOK_DELIVERY_TIMEOUT_MS) plus a few table writes;
    // well under the queue's visibility timeout, so no attempt is redelivered while it is still running.
    timeout: CONSUMER_TIMEOUT,
  });
  bindTable(webhookConsumer, table, 'readWrite');
  bindWebhookQueue(webhookConsumer, webhookQueue, props.webhookDeadLetters);
  webhookConsumer.function.addEventSource(
    new SqsEventSource(webhookQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: WEBHOOK_CONSUMER_MAX_CONCURRENCY }),
  );

  // Ingests knowledge documents (docs/knowledge.md, "Ingestion"): one revision per message. PDF.js and the
  // openai SDK sit beside the bundle (loaded on first use). Its data key opens workspaces' own OpenAI keys.
  const knowledgeConsumer = addFunction('KnowledgeConsumer', {
    entry: 'functions/queue/knowledge.ts',
    timeout: Duration.seconds(KNOWLEDGE_QUEUE_SETTINGS.consumerTimeoutSeconds),
    bundleModules: [
      { from: PDF_LIBS_SOURCE, to: PDF_LIBS_FILE },
      { from: EMBEDDINGS_LIBS_SOURCE, to: EMBEDDINGS_LIBS_FILE },
    ],
  });
  bindTable(knowledgeConsumer, table, 'readWrite');
  bindKnowledge(knowledgeConsumer, props.bucket, props.knowledgeQueue);
  knowledgeConsumer.function.addEventSource(new SqsEventSource(props.knowledgeQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: KNOWLEDGE_CONSUMER_MAX_CONCURRENCY }));

  // Plays agent-test runs (docs/agent-tests.md): each scenario a chat on the streaming service's `/web-chat`
  // socket (WEB_STREAM_URL, set on every function), billed and recorded as chats; one run per message. The
  // LLM and TTS adapters a model persona or a voice scenario's caller uses sit beside the bundle.
  const agentTestConsumer = addFunction('AgentTestConsumer', {
    entry: 'functions/queue/agent-tests.ts',
    timeout: Duration.seconds(AGENT_TEST_QUEUE_SETTINGS.consumerTimeoutSeconds),
    bundleModules: AGENT_TEST_CONSUMER_MODULES,
  });
  bindTable(agentTestConsumer, table, 'readWrite');
  bindWebhookQueue(agentTestConsumer, webhookQueue);
  bindAgentTestQueue(agentTestConsumer, props.agentTestQueue);
  agentTestConsumer.function.addEventSource(
    new SqsEventSource(props.agentTestQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: AGENT_TEST_QUEUE_SETTINGS.consumerConcurrency }),
  );

  return { dispatchConsumer, streamSweep, lostCallbacks, campaignScheduler, webhookConsumer, knowledgeConsumer, agentTestConsumer };
}
