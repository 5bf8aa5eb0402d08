import { type CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STREAM_SWEEP_EVERY_MS } from '../domain/call.js';
import { GSI1, TABLE, type TableDefinition } from '../store/model.js';
import { entryConstructId, PlatformFunction, type PlatformFunctionProps } from './constructs/api-function.js';
import { bindDataKey, bindDispatchQueue, bindRateLimits, bindRecordings, bindStreamSweep, bindTable, bindTwilioCredentials, bindWebhookQueue } from './constructs/bindings.js';
import { WEBHOOK_QUEUE_SETTINGS } from '../store/queue.js';
import { StreamingService, type StreamingTls } from './constructs/streaming-service.js';
import { Dashboard } from './constructs/dashboard.js';
import { dashboardCsp } from '../web/dashboard/headers.js';
import { ApiEdge, protectLoadBalancer } from './constructs/edge.js';
import { PlatformDomains, type DomainsProps } from './constructs/domains.js';
import { Monitoring } from './constructs/monitoring.js';
import { acknowledgeNagFindings } from './constructs/nag-acknowledgements.js';
import { CampaignScheduler } from './constructs/campaign-scheduler.js';
import { planRouteFunctions, type RouteEntry } from './entry-needs.js';

/**
 * AWS's advice for a Lambda consuming SQS: a visibility timeout of at least six times the function's timeout,
 * so a message whose receive was throttled or retried by the poller is not visible again (and counted as a
 * receive) while a batch is still running.
 */
export const SQS_VISIBILITY_PER_TIMEOUT = 6;

/** The queue consumers' timeouts: a Twilio create or a batch of webhook attempts (10 s each), plus table writes. */
export const CONSUMER_TIMEOUT = Duration.seconds(25);

/** The call-dispatch queue's settings; lib/local/sqs.ts mirrors the receive count and test/offline checks they agree. */
export const DISPATCH_QUEUE = {
  /** Six consumer timeouts (locally 60 s: lib/local/sqs.ts has no Lambda poller to throttle). */
  visibilityTimeout: Duration.seconds(CONSUMER_TIMEOUT.toSeconds() * SQS_VISIBILITY_PER_TIMEOUT),
  /** Three tries ride out a vendor blip; a message failing more often is a bug to inspect, not to retry. */
  maxReceiveCount: 3,
  /** SQS's maximum: time to notice, fix and redrive failed dispatches. */
  deadLetterRetention: Duration.days(14),
  /**
   * Concurrent consumer instances at most. Twilio admits one new call a second per account by default (more
   * on request): a few instances keep up, and a cap below the poller's free scaling means messages wait in
   * the queue instead of being received by an instance that is then throttled, which burns their receives.
   */
  maxConcurrency: 5,
} as const;

/** Concurrent webhook consumers at most: deliveries are I/O-bound, ten batches of ten run a hundred at once. */
export const WEBHOOK_CONSUMER_MAX_CONCURRENCY = WEBHOOK_QUEUE_SETTINGS.consumerConcurrency;

/**
 * Recordings lifecycle. Infrequent Access after 30 days: recordings are replayed mostly in the first days
 * after a call, and 30 days is also IA's minimum billed storage duration. Deleted after 365 days: a year covers
 * quality reviews and disputes while bounding what the platform keeps of people's voices.
 */
export const RECORDINGS_LIFECYCLE = {
  infrequentAccessAfter: Duration.days(30),
  expireAfter: Duration.days(365),
  /** Parts of an upload that never completed cost money and serve nobody. */
  abortIncompleteUploadsAfter: Duration.days(7),
} as const;

/**
 * The secret's generator alphabet is 0-9a-f: Secrets Manager cannot emit base64 of random bytes, but 64 hex
 * characters from its random generator are exactly 32 random bytes (lib/deps.ts decodes both forms).
 */
export const DATA_KEY_SECRET = {
  passwordLength: 64,
  excludeUppercase: true,
  excludePunctuation: true,
  includeSpace: false,
  excludeCharacters: 'ghijklmnopqrstuvwxyz',
  // Forcing "one of each type" would bias characters; every position stays independent and uniform.
  requireEachIncludedType: false,
} as const satisfies secretsmanager.SecretStringGenerator;

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

/** Builds the table's key schema and indexes from the model (STYLE 11): every key attribute is a string. */
function tableKeys(model: TableDefinition): Pick<dynamodb.TablePropsV2, 'partitionKey' | 'sortKey' | 'globalSecondaryIndexes'> {
  const str = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
  return {
    partitionKey: str(model.partitionKey),
    sortKey: str(model.sortKey),
    globalSecondaryIndexes: model.globalIndexes.map((index) => ({
      indexName: index.name,
      partitionKey: str(index.partitionKey),
      sortKey: str(index.sortKey),
      projectionType: dynamodb.ProjectionType.ALL,
    })),
  };
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

    this.table = new dynamodb.TableV2(this, 'Table', {
      ...tableKeys(TABLE),
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Idempotency keys and meeting tokens expire; readers check the time themselves (deletion lags).
      ...(TABLE.ttlAttribute ? { timeToLiveAttribute: TABLE.ttlAttribute } : {}),
      // Customer data outlives any one deployment of the stack, and a console click or a script cannot drop it.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });

    this.recordings = new s3.Bucket(this, 'Recordings', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // SSE-S3 rather than KMS: recordings leave only through presigned URLs, which with a customer key would
      // also need kms:Decrypt on every signer, for no protection the bucket policy does not already give.
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          id: 'recordings-age-out',
          transitions: [
            { storageClass: s3.StorageClass.INFREQUENT_ACCESS, transitionAfter: RECORDINGS_LIFECYCLE.infrequentAccessAfter },
          ],
          expiration: RECORDINGS_LIFECYCLE.expireAfter,
          abortIncompleteMultipartUploadAfter: RECORDINGS_LIFECYCLE.abortIncompleteUploadsAfter,
        },
      ],
    });

    this.dispatchDeadLetters = new sqs.Queue(this, 'CallDispatchDeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DISPATCH_QUEUE.deadLetterRetention,
    });
    this.dispatchQueue = new sqs.Queue(this, 'CallDispatch', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: DISPATCH_QUEUE.visibilityTimeout,
      deadLetterQueue: { queue: this.dispatchDeadLetters, maxReceiveCount: DISPATCH_QUEUE.maxReceiveCount },
    });

    this.webhookDeadLetters = new sqs.Queue(this, 'WebhookDeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(WEBHOOK_QUEUE_SETTINGS.deadLetterRetentionDays),
    });
    this.webhookQueue = new sqs.Queue(this, 'WebhookDeliveries', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Six consumer timeouts, as for dispatch (locally WEBHOOK_QUEUE_SETTINGS' 60 s: no Lambda poller there).
      visibilityTimeout: Duration.seconds(Math.max(WEBHOOK_QUEUE_SETTINGS.visibilityTimeoutSeconds, CONSUMER_TIMEOUT.toSeconds() * SQS_VISIBILITY_PER_TIMEOUT)),
      deadLetterQueue: { queue: this.webhookDeadLetters, maxReceiveCount: WEBHOOK_QUEUE_SETTINGS.maxReceiveCount },
    });

    this.dataKey = new secretsmanager.Secret(this, 'DataKey', {
      description: 'AES-256 data key (64 hex characters) sealing stored secrets; never rotate in place: sealed values would stop opening',
      generateSecretString: DATA_KEY_SECRET,
      // Losing the key makes every sealed value in the retained table unreadable.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.twilioCredentials =
      props.twilioSecretArn === undefined
        ? new secretsmanager.Secret(this, 'TwilioCredentials', {
            description: 'Platform Twilio account as JSON {"accountSid": "AC...", "authToken": "..."}: put the real values after the first deploy',
            // A placeholder the handlers refuse (empty accountSid) until an operator puts the real account in.
            generateSecretString: { secretStringTemplate: JSON.stringify({ accountSid: '' }), generateStringKey: 'authToken' },
            removalPolicy: RemovalPolicy.RETAIN,
          })
        : secretsmanager.Secret.fromSecretCompleteArn(this, 'TwilioCredentials', props.twilioSecretArn);

    this.vendorKeys =
      props.vendorKeysSecretArn === undefined
        ? new secretsmanager.Secret(this, 'VendorKeys', {
            description: 'Platform vendor keys as JSON {"OPENAI_API_KEY": "...", "DEEPGRAM_API_KEY": "...", ...}: fields named as in lib/config.ts (docs/deploy.md)',
            // An empty object, not a generated value: a field the platform does not know would stop the task.
            secretObjectValue: {},
            removalPolicy: RemovalPolicy.RETAIN,
          })
        : secretsmanager.Secret.fromSecretCompleteArn(this, 'VendorKeys', props.vendorKeysSecretArn);

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
    // The streaming service announces call.started, call.ended, call.transfer and call.analyzed.
    bindWebhookQueue(this.streaming.bindTarget, this.webhookQueue);

    const routeScope = new Construct(this, 'Routes');
    const routeFunctions = new Map<RouteEntry, PlatformFunction>();
    const plans = planRouteFunctions();
    // Route functions with the same needs share one role: the rights are the same by construction, and a
    // role and its policy per function would cost the stack two of CloudFormation's 500 resources each.
    const roles = new Map<string, iam.Role>();
    const roleFor = (needs: object, counted: boolean): iam.Role => {
      const { timeoutSeconds: _t, memoryMiB: _m, bundleFiles: _b, bundleModules: _bm, ...rights } = needs as Record<string, unknown>;
      const signature = JSON.stringify({ ...rights, counted });
      let role = roles.get(signature);
      if (!role) {
        role = new iam.Role(routeScope, `Role${roles.size + 1}`, {
          assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
          managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
        });
        roles.set(signature, role);
      }
      return role;
    };
    for (const { entry, routes, needs } of plans) {
      const id = entryConstructId(entry);
      const counted = needs.table !== 'none' && routes.some((r) => r.auth || r.ipLimit);
      const fn = this.newFunction(routeScope, id, {
        entry,
        role: roleFor(needs, counted),
        ...(needs.timeoutSeconds === undefined ? {} : { timeout: Duration.seconds(needs.timeoutSeconds) }),
        ...(needs.memoryMiB === undefined ? {} : { memoryMiB: needs.memoryMiB }),
        ...(needs.bundleFiles === undefined ? {} : { bundleFiles: needs.bundleFiles }),
        ...(needs.bundleModules === undefined ? {} : { bundleModules: needs.bundleModules }),
      });
      if (needs.table !== 'none') bindTable(fn, this.table, needs.table);
      // Keyed and per-IP-limited routes count each request in the table (lib/services/rate-limits.ts).
      if (counted) bindRateLimits(fn, this.table);
      if (needs.recordings) bindRecordings(fn, this.recordings, needs.recordings);
      if (needs.dispatch) bindDispatchQueue(fn, this.dispatchQueue, needs.dispatch);
      if (needs.webhooks) bindWebhookQueue(fn, this.webhookQueue);
      if (needs.twilioCredentials) bindTwilioCredentials(fn, this.twilioCredentials);
      // One integration per function, shared by its routes.
      // One invoke permission per function for the whole API, not one per route (CloudFormation's 500 again).
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn.function, { scopePermissionToRoute: false });
      for (const route of routes) {
        const authorizer = this.edge.authorizerFor(route);
        this.api.addRoutes({ path: route.path, methods: [apigw.HttpMethod[route.method]], integration, ...(authorizer ? { authorizer } : {}) });
      }
      routeFunctions.set(entry, fn);
    }
    this.routeFunctions = routeFunctions;
    this.dashboard = new Dashboard(this, 'Dashboard', {
      api: this.api,
      ...(props.dashboardPagesDir ? { pagesDir: props.dashboardPagesDir } : {}),
      // Recordings play from presigned URLs on the bucket's regional endpoint.
      contentSecurityPolicy: dashboardCsp([`https://${this.recordings.bucketRegionalDomainName}`]),
    });
    this.dashboard.bindRoutes(routeFunctions);
    this.edge.throttleRoutes(plans.flatMap((p) => p.routes));

    // Places queued calls. Its timeout stays well under the queue's visibility timeout, so a message is
    // never redelivered while its first receive is still dialing.
    this.dispatchConsumer = this.addFunction('DispatchConsumer', {
      entry: 'functions/queue/dispatch.ts',
      // A Twilio create (10 s adapter timeout) plus a few table writes, with room; a sixth of the visibility.
      timeout: CONSUMER_TIMEOUT,
      environment: { DISPATCH_MAX_RECEIVE_COUNT: String(DISPATCH_QUEUE.maxReceiveCount) },
    });
    bindTable(this.dispatchConsumer, this.table, 'readWrite');
    bindTwilioCredentials(this.dispatchConsumer, this.twilioCredentials);
    // A call that cannot be placed ends unconnected, which announces call.ended.
    bindWebhookQueue(this.dispatchConsumer, this.webhookQueue);
    // Partial batch responses: one failing call is retried alone, not with the calls placed beside it.
    this.dispatchConsumer.function.addEventSource(
      new SqsEventSource(this.dispatchQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: DISPATCH_QUEUE.maxConcurrency }),
    );

    // Settles calls whose streaming container died (docs/calls.md, "Abandoned streams"), on a timer.
    this.streamSweep = this.addFunction('AbandonedStreamSweep', {
      entry: 'functions/schedule/abandoned-streams.ts',
      // A run settles at most 200 calls at a few table writes each: seconds; a minute leaves room for throttling.
      timeout: Duration.seconds(60),
    });
    bindStreamSweep(this.streamSweep, this.table, GSI1);
    bindWebhookQueue(this.streamSweep, this.webhookQueue);
    new events.Rule(this, 'AbandonedStreamSweepSchedule', {
      description: 'Settles calls whose media stream stopped beating (its container died)',
      schedule: events.Schedule.rate(Duration.millis(STREAM_SWEEP_EVERY_MS)),
      // A missed run is not retried: the next one, minutes later, does the same work.
      targets: [new eventTargets.LambdaFunction(this.streamSweep.function, { retryAttempts: 0 })],
    });

    // Ends dialed calls whose final status callback was lost (docs/calls.md, "Lost status callbacks"): a
    // sibling of the sweep, so the sweep's bundle stays without the Twilio SDK.
    this.lostCallbacks = this.addFunction('LostCallbackReconciliation', {
      entry: 'functions/schedule/lost-callbacks.ts',
      // At most 100 Twilio fetches (10 s adapter timeout each, usually well under a second) and a few writes each.
      timeout: Duration.seconds(120),
    });
    bindStreamSweep(this.lostCallbacks, this.table, GSI1);
    bindTwilioCredentials(this.lostCallbacks, this.twilioCredentials);
    bindWebhookQueue(this.lostCallbacks, this.webhookQueue);
    new events.Rule(this, 'LostCallbackReconciliationSchedule', {
      description: 'Ends dialed calls whose final Twilio status callback was lost (Twilio does not retry it)',
      schedule: events.Schedule.rate(Duration.millis(STREAM_SWEEP_EVERY_MS)),
      targets: [new eventTargets.LambdaFunction(this.lostCallbacks.function, { retryAttempts: 0 })],
    });

    // Dials campaigns' due contacts into the dispatch queue (docs/campaigns.md, "The scheduler").
    this.campaignScheduler = new CampaignScheduler(this, 'CampaignScheduler', {
      table: this.table,
      dispatchQueue: this.dispatchQueue,
      webhookQueue: this.webhookQueue,
      newFunction: (scope, id, fnProps) => this.newFunction(scope, id, fnProps),
    });

    // Delivers webhooks, one attempt per message; retries are messages it queues itself with their delay.
    this.webhookConsumer = this.addFunction('WebhookConsumer', {
      entry: 'functions/queue/webhooks.ts',
      // A batch runs its attempts in parallel, each at most 10 s in all (WEBHOOK_DELIVERY_TIMEOUT_MS) plus a few table writes;
      // well under the queue's visibility timeout, so no attempt is redelivered while it is still running.
      timeout: CONSUMER_TIMEOUT,
    });
    bindTable(this.webhookConsumer, this.table, 'readWrite');
    bindWebhookQueue(this.webhookConsumer, this.webhookQueue, this.webhookDeadLetters);
    this.webhookConsumer.function.addEventSource(
      new SqsEventSource(this.webhookQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: WEBHOOK_CONSUMER_MAX_CONCURRENCY }),
    );

    this.monitoring = new Monitoring(this, 'Monitoring', {
      ...(props.alarmEmail ? { alarmEmail: props.alarmEmail } : {}),
      deadLetterQueues: [
        { name: 'CallDispatch', queue: this.dispatchDeadLetters },
        { name: 'WebhookDeliveries', queue: this.webhookDeadLetters },
      ],
      functionGroups: [
        { name: 'Routes', functions: [...this.routeFunctions.values()].map((f) => f.function) },
        { name: 'ApiKeyAuthorizer', functions: [this.edge.authorizerFunction.function] },
        { name: 'QueueConsumers', functions: [this.dispatchConsumer.function, this.webhookConsumer.function] },
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
      streaming: this.streaming,
      dashboard: this.dashboard,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.publicBaseUrl, description: 'Base URL of the API and docs (/docs)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'TABLE_NAME for the admin CLI' });
    new CfnOutput(this, 'RecordingsBucketName', { value: this.recordings.bucketName });
    new CfnOutput(this, 'DispatchQueueUrl', { value: this.dispatchQueue.queueUrl });
    new CfnOutput(this, 'WebhookDeadLettersUrl', { value: this.webhookDeadLetters.queueUrl, description: 'Webhook deliveries that gave up (inspect, or replay from the API)' });
    new CfnOutput(this, 'StreamUrl', { value: this.streamUrl, description: 'Twilio Media Streams URL (STREAM_URL); ws:// without a certificate is for testing only' });
    new CfnOutput(this, 'DataKeySecretArn', { value: this.dataKey.secretArn, description: 'SECRET_KEY_ARN for the admin CLI' });
    new CfnOutput(this, 'VendorKeysSecretArn', { value: this.vendorKeys.secretArn, description: 'Put the platform vendor keys here: JSON {"OPENAI_API_KEY": "...", ...}, then restart the streaming service' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn, description: 'Alarms publish here (subscribe more endpoints as needed)' });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
    new CfnOutput(this, 'StreamingClusterName', { value: this.streaming.cluster.clusterName });
    new CfnOutput(this, 'StreamingServiceName', { value: this.streaming.service.serviceName, description: 'aws ecs update-service --force-new-deployment after changing the vendor keys' });
    new CfnOutput(this, 'StreamingLoadBalancerDns', { value: this.streaming.loadBalancer.loadBalancerDnsName, description: 'CNAME the stream domain here when its DNS is not in Route 53' });
    if (this.domains.apiDomainName) {
      new CfnOutput(this, 'ApiDomainTarget', { value: this.domains.apiDomainName.regionalDomainName, description: 'CNAME the API domain here when its DNS is not in Route 53' });
    }
    new CfnOutput(this, 'TwilioSecretArn', { value: this.twilioCredentials.secretArn, description: 'Put the platform Twilio account here: JSON {accountSid, authToken}' });
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
