import { type CfnElement, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { PlatformFunction, type PlatformFunctionProps } from './constructs/api-function.js';
import { addBackgroundFunctions } from './constructs/background-functions.js';
import { bindDataKey, bindRecordings, bindWebhookQueue } from './constructs/bindings.js';
import type { CampaignScheduler } from './constructs/campaign-scheduler.js';
import { Dashboard } from './constructs/dashboard.js';
import { PlatformDomains, type DomainsProps } from './constructs/domains.js';
import { ApiEdge, protectLoadBalancer } from './constructs/edge.js';
import { Monitoring } from './constructs/monitoring.js';
import { acknowledgeNagFindings } from './constructs/nag-acknowledgements.js';
import { addRouteFunctions } from './constructs/route-functions.js';
import { addStackOutputs } from './constructs/stack-outputs.js';
import { platformQueues, platformSecrets, platformTable, recordingsBucket } from './constructs/storage.js';
import { StreamingService, type StreamingTls } from './constructs/streaming-service.js';
import type { RouteEntry } from './entry-needs.js';
import { dashboardCsp } from '../web/dashboard/headers.js';

/** Options of {@link PlatformStack}. */
export interface PlatformStackProps extends StackProps {
  /**
   * The public origin clients use (a custom domain in front of the API), without a trailing slash. Defaults to
   * the HTTP API's own endpoint. From the CLI: `-c publicBaseUrl=https://api.example.com`.
   */
  readonly publicBaseUrl?: string;
  /**
   * An existing Secrets Manager secret holding the platform's Twilio account as JSON `{accountSid, authToken}`.
   * Without it the stack creates one to fill in after deploy (see docs/telephony.md). CLI: `-c twilioSecretArn=arn:...`.
   */
  readonly twilioSecretArn?: string;
  /**
   * TLS for the streaming service's ALB (Twilio connects only to `wss://`). Without it the ALB listens on
   * plain HTTP and STREAM_URL is `ws://`, for testing only (docs/deploy.md). From the CLI:
   * `-c certificateArn=arn:aws:acm:... -c streamDomain=stream.example.com`.
   */
  readonly streamingTls?: StreamingTls;
  /**
   * An existing Secrets Manager secret with the platform's vendor keys as JSON (`{"OPENAI_API_KEY": "..."}`).
   * Without it the stack creates an empty one (`{}`) to fill in. CLI: `-c vendorKeysSecretArn=arn:...`.
   */
  readonly vendorKeysSecretArn?: string;
  /** Where alarms are emailed (context `alarmEmail`); without it, subscribe to the AlarmTopicArn output yourself. */
  readonly alarmEmail?: string;
  /**
   * The dashboard's built pages (lib/web/dashboard/build.ts), deployed to its bucket. bin/cdk.ts builds and
   * passes them; without them the bucket stays empty (tests synthesize without building the front end).
   */
  readonly dashboardPagesDir?: string;
  /** The API's and the streaming service's names, certificates and records (constructs/domains.ts). */
  readonly domains?: Omit<DomainsProps, 'streamCertificateArn'>;
  /** AWS WAF in front of the streaming service's ALB (context `waf=true`; constructs/edge.ts says why not the API). */
  readonly waf?: boolean;
}

function checkBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`publicBaseUrl must be an absolute URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('publicBaseUrl must be http(s)');
  return url.replace(/\/+$/, '');
}

/**
 * The whole platform in one environment-agnostic stack: the single table, the recordings bucket, the
 * call-dispatch queue with its dead letters, the data-key secret, and the HTTP API with one Lambda per
 * handler module of lib/infra/routes.ts.
 *
 * Extending it: a route is a line in routes.ts (plus ENTRY_NEEDS in entry-needs.ts if it needs more than the
 * table); a non-route Lambda (a queue consumer) is {@link PlatformStack.addFunction} plus the `bind*`
 * helpers of constructs/bindings.ts; a container binds the same resources through a `BindTarget`
 * adapter over its task role and container definition.
 */
export class PlatformStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly recordings: s3.Bucket;
  readonly dispatchQueue: sqs.Queue;
  readonly dispatchDeadLetters: sqs.Queue;
  /** Webhook deliveries (docs/webhooks.md): one message per attempt; deliveries that gave up are parked in the dead letters. */
  readonly webhookQueue: sqs.Queue;
  readonly webhookDeadLetters: sqs.Queue;
  readonly knowledgeQueue: sqs.Queue;
  readonly knowledgeDeadLetters: sqs.Queue;
  readonly agentTestQueue: sqs.Queue;
  readonly agentTestDeadLetters: sqs.Queue;
  readonly dataKey: secretsmanager.Secret;
  /** The platform's Twilio account credentials, read only by the handlers whose needs name them. */
  readonly twilioCredentials: secretsmanager.ISecret;
  readonly api: apigw.HttpApi;
  /** What PUBLIC_BASE_URL is set to: the context value, or the API's endpoint. */
  readonly publicBaseUrl: string;
  /** The function serving each handler module of the route table. */
  readonly routeFunctions: ReadonlyMap<RouteEntry, PlatformFunction>;
  /** The Twilio Media Streams service (Fargate behind an ALB). */
  readonly streaming: StreamingService;
  /** STREAM_URL of every function: where Twilio opens a call's media stream. */
  readonly streamUrl: string;
  /** The call-dispatch queue's consumer (functions/queue/dispatch.ts). */
  readonly dispatchConsumer: PlatformFunction;
  /** The scheduled sweep of abandoned streams (functions/schedule/abandoned-streams.ts). */
  readonly streamSweep: PlatformFunction;
  /** The scheduled reconciliation of lost status callbacks (functions/schedule/lost-callbacks.ts). */
  readonly lostCallbacks: PlatformFunction;
  /** The webhook-delivery queue's consumer (functions/queue/webhooks.ts). */
  readonly webhookConsumer: PlatformFunction;
  /** The knowledge-ingestion queue's consumer (functions/queue/knowledge.ts). */
  readonly knowledgeConsumer: PlatformFunction;
  /** The agent-test run queue's consumer (functions/queue/agent-tests.ts). */
  readonly agentTestConsumer: PlatformFunction;
  /** Dashboard sign-in (Cognito), its pages (S3) and CloudFront in front of them and the API (docs/dashboard.md). */
  readonly dashboard: Dashboard;
  /** The platform's vendor keys (JSON, one field per `*_API_KEY`), read by the streaming task only. */
  readonly vendorKeys: secretsmanager.ISecret;
  /** The key authorizer and stage throttling in front of the routes. */
  readonly edge: ApiEdge;
  readonly domains: PlatformDomains;
  readonly monitoring: Monitoring;
  /** The campaign scheduler (functions/schedule/campaigns.ts on an EventBridge rule; docs/campaigns.md). */
  readonly campaignScheduler: CampaignScheduler;

  constructor(scope: Construct, id: string, props: PlatformStackProps = {}) {
    super(scope, id, props);

    this.table = platformTable(this);
    this.recordings = recordingsBucket(this);
    ({
      dispatchQueue: this.dispatchQueue,
      dispatchDeadLetters: this.dispatchDeadLetters,
      webhookQueue: this.webhookQueue,
      webhookDeadLetters: this.webhookDeadLetters,
      knowledgeQueue: this.knowledgeQueue,
      knowledgeDeadLetters: this.knowledgeDeadLetters,
      agentTestQueue: this.agentTestQueue,
      agentTestDeadLetters: this.agentTestDeadLetters,
    } = platformQueues(this));
    ({ dataKey: this.dataKey, twilioCredentials: this.twilioCredentials, vendorKeys: this.vendorKeys } = platformSecrets(this, props));

    this.domains = new PlatformDomains(this, 'Domains', {
      ...props.domains,
      ...(props.streamingTls ? { streamDomain: props.streamingTls.domain, streamCertificateArn: props.streamingTls.certificateArn } : {}),
    });

    this.api = new apigw.HttpApi(this, 'Api', {
      description: 'Voice agent platform API',
    });
    this.domains.mapApi(this.api);
    // The functions may reference the API's endpoint: the API resource itself refers to no function (only
    // its integrations and routes do), so this is no dependency cycle.
    const baseUrl = props.publicBaseUrl ?? this.domains.apiOrigin;
    this.publicBaseUrl = baseUrl === undefined ? this.api.apiEndpoint : checkBaseUrl(baseUrl);
    this.edge = new ApiEdge(this, 'Edge', { api: this.api, table: this.table });

    // Before the functions: they all get its URL (the service refers to no function, so no cycle).
    this.streaming = new StreamingService(this, 'Streaming', {
      table: this.table,
      recordings: this.recordings,
      dataKey: this.dataKey,
      twilioSecret: this.twilioCredentials,
      publicBaseUrl: this.publicBaseUrl,
      vendorKeys: this.vendorKeys,
      metricsStack: this.stackName,
      ...(this.domains.streamingTls ? { tls: this.domains.streamingTls } : {}),
    });
    this.domains.pointStream(this.streaming.loadBalancer);
    if (props.waf) protectLoadBalancer(this, 'StreamingWaf', this.streaming.loadBalancer);
    this.streamUrl = this.streaming.streamUrl;
    // The streaming service announces call.started, call.ended, call.transfer, call.handoff and call.analyzed.
    bindWebhookQueue(this.streaming.bindTarget, this.webhookQueue);
    // Conversations read knowledge segments (docs/knowledge.md, "Retrieval").
    bindRecordings(this.streaming.bindTarget, this.recordings, 'read', 'workspaces/*');

    const { functions: routeFunctions, plans } = addRouteFunctions(this, {
      table: this.table,
      recordings: this.recordings,
      dispatchQueue: this.dispatchQueue,
      webhookQueue: this.webhookQueue,
      knowledgeQueue: this.knowledgeQueue,
      agentTestQueue: this.agentTestQueue,
      twilioCredentials: this.twilioCredentials,
      api: this.api,
      edge: this.edge,
      newFunction: (scope, id, fnProps) => this.newFunction(scope, id, fnProps),
    });
    this.routeFunctions = routeFunctions;
    this.dashboard = new Dashboard(this, 'Dashboard', {
      api: this.api,
      ...(props.dashboardPagesDir ? { pagesDir: props.dashboardPagesDir } : {}),
      // Recordings play from presigned URLs on the bucket's regional endpoint.
      // The Live page's listen socket is on the streaming service's origin (docs/live-calls.md).
      contentSecurityPolicy: dashboardCsp([`https://${this.recordings.bucketRegionalDomainName}`], [this.streaming.webStreamUrl.replace(/\/web-stream$/, '')]),
    });
    this.dashboard.bindRoutes(routeFunctions);
    this.edge.throttleRoutes(plans.flatMap((p) => p.routes));

    ({
      dispatchConsumer: this.dispatchConsumer,
      streamSweep: this.streamSweep,
      lostCallbacks: this.lostCallbacks,
      campaignScheduler: this.campaignScheduler,
      webhookConsumer: this.webhookConsumer,
      knowledgeConsumer: this.knowledgeConsumer,
      agentTestConsumer: this.agentTestConsumer,
    } = addBackgroundFunctions(this, {
      table: this.table,
      twilioCredentials: this.twilioCredentials,
      dispatchQueue: this.dispatchQueue,
      webhookQueue: this.webhookQueue,
      webhookDeadLetters: this.webhookDeadLetters,
      knowledgeQueue: this.knowledgeQueue,
      agentTestQueue: this.agentTestQueue,
      bucket: this.recordings,
      newFunction: (scope, id, fnProps) => this.newFunction(scope, id, fnProps),
    }));

    this.monitoring = new Monitoring(this, 'Monitoring', {
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
      deadLetterQueues: [
        { name: 'CallDispatch', queue: this.dispatchDeadLetters },
        { name: 'WebhookDeliveries', queue: this.webhookDeadLetters },
        { name: 'KnowledgeIngestion', queue: this.knowledgeDeadLetters },
        { name: 'AgentTestRuns', queue: this.agentTestDeadLetters },
      ],
      functionGroups: [
        { name: 'Routes', functions: [...this.routeFunctions.values()].map((f) => f.function) },
        { name: 'ApiKeyAuthorizer', functions: [this.edge.authorizerFunction.function] },
        { name: 'QueueConsumers', functions: [this.dispatchConsumer.function, this.webhookConsumer.function, this.knowledgeConsumer.function, this.agentTestConsumer.function] },
        { name: 'Scheduled', functions: [this.streamSweep.function, this.lostCallbacks.function, this.campaignScheduler.fn.function] },
      ],
      api: this.api,
      streaming: this.streaming,
      maxTasks: this.streaming.maxTasks,
      metricsStack: this.stackName,
    });

    acknowledgeNagFindings(this, {
      tableResource: this.table.node.defaultChild as CfnElement,
      recordingsResource: this.recordings.node.defaultChild as CfnElement,
      recordings: this.recordings,
      dataKey: this.dataKey,
      vendorSecrets: [this.twilioCredentials, this.vendorKeys],
      // The role carries the grant: route functions with the same needs share one.
      recordingReaders: plans.filter((p) => p.needs.recordings && p.needs.recordings !== 'write').map((p) => this.routeFunctions.get(p.entry)!.function.role!),
      knowledgeUsers: [
        ...plans.filter((p) => p.needs.knowledge).map((p) => this.routeFunctions.get(p.entry)!.function.role!),
        this.knowledgeConsumer.function,
        this.streaming.taskDefinition,
      ],
      streaming: this.streaming,
      dashboard: this.dashboard,
    });

    addStackOutputs(this);
  }

  /**
   * A Lambda with the platform defaults, PUBLIC_BASE_URL and the data key (every handler's composition root
   * loads it). Bind what else it needs with constructs/bindings.ts, e.g. a dispatch consumer:
   * `stack.addFunction('DispatchConsumer', { entry })` then an SqsEventSource on `dispatchQueue` and `bindTable`.
   */
  addFunction(id: string, props: PlatformFunctionProps): PlatformFunction {
    return this.newFunction(this, id, props);
  }

  private newFunction(scope: Construct, id: string, props: PlatformFunctionProps): PlatformFunction {
    const fn = new PlatformFunction(scope, id, {
      ...props,
      environment: {
        PUBLIC_BASE_URL: this.publicBaseUrl,
        STREAM_URL: this.streamUrl,
        WEB_STREAM_URL: this.streaming.webStreamUrl,
        // Call outcomes as EMF lines (lib/services/call-metrics.ts), read by the call-failure alarm.
        METRICS_MODE: 'emf',
        METRICS_STACK: this.stackName,
        ...props.environment,
      },
    });
    bindDataKey(fn, this.dataKey);
    return fn;
  }
}
