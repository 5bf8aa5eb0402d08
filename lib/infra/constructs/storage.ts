import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { TABLE, type TableDefinition } from '../../store/model.js';
import { AGENT_TEST_QUEUE_SETTINGS, KNOWLEDGE_QUEUE_SETTINGS, WEBHOOK_QUEUE_SETTINGS } from '../../store/queue.js';

/*
 * What the platform keeps: the single table, the recordings bucket, the two queues with their dead letters
 * and the secrets. Each is made in the stack's own scope (its construct ids, and so its logical ids, are
 * the ones the stack always had).
 */

/**
 * AWS's advice for a Lambda consuming SQS: a visibility timeout of at least six times the function's timeout,
 * so a message whose receive was throttled or retried by the poller is not visible again (and counted as a
 * receive) while a batch is still running.
 */
export const SQS_VISIBILITY_PER_TIMEOUT = 6;

/** The queue consumers' timeouts: a Twilio create or a batch of webhook attempts (10 s each), plus table writes. */
export const CONSUMER_TIMEOUT = Duration.seconds(25);

/** The call-dispatch queue's settings; lib/local/platform/sqs.ts mirrors the receive count and test/offline checks they agree. */
export const DISPATCH_QUEUE = {
  /** Six consumer timeouts (locally 60 s: lib/local/platform/sqs.ts has no Lambda poller to throttle). */
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

/** Documents ingested at once at most: each embeds in batches against the vendor's rate limits, and reads PDFs in 1 GB. */
export const KNOWLEDGE_CONSUMER_MAX_CONCURRENCY = 5;

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

/** The single table, its keys and indexes built from the model. */
export function platformTable(scope: Construct): dynamodb.TableV2 {
  return new dynamodb.TableV2(scope, 'Table', {
    ...tableKeys(TABLE),
    billing: dynamodb.Billing.onDemand(),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Idempotency keys and meeting tokens expire; readers check the time themselves (deletion lags).
    ...(TABLE.ttlAttribute ? { timeToLiveAttribute: TABLE.ttlAttribute } : {}),
    // Customer data outlives any one deployment of the stack, and a console click or a script cannot drop it.
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
  });
}

/** The recordings bucket: private, SSE-S3, aged out by RECORDINGS_LIFECYCLE. */
export function recordingsBucket(scope: Construct): s3.Bucket {
  return new s3.Bucket(scope, 'Recordings', {
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
}

/** The call-dispatch and webhook-delivery queues, each with its dead letters. */
export interface PlatformQueues {
  readonly dispatchQueue: sqs.Queue;
  readonly dispatchDeadLetters: sqs.Queue;
  readonly webhookQueue: sqs.Queue;
  readonly webhookDeadLetters: sqs.Queue;
  /** Knowledge ingestion (docs/knowledge.md): one message per document revision. */
  readonly knowledgeQueue: sqs.Queue;
  readonly knowledgeDeadLetters: sqs.Queue;
  /** Agent-test runs (docs/agent-tests.md): one message per run to play. */
  readonly agentTestQueue: sqs.Queue;
  readonly agentTestDeadLetters: sqs.Queue;
}

export function platformQueues(scope: Construct): PlatformQueues {
  const dispatchDeadLetters = new sqs.Queue(scope, 'CallDispatchDeadLetters', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DISPATCH_QUEUE.deadLetterRetention,
  });
  const dispatchQueue = new sqs.Queue(scope, 'CallDispatch', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: DISPATCH_QUEUE.visibilityTimeout,
    deadLetterQueue: { queue: dispatchDeadLetters, maxReceiveCount: DISPATCH_QUEUE.maxReceiveCount },
  });

  const webhookDeadLetters = new sqs.Queue(scope, 'WebhookDeadLetters', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(WEBHOOK_QUEUE_SETTINGS.deadLetterRetentionDays),
  });
  const webhookQueue = new sqs.Queue(scope, 'WebhookDeliveries', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    // Six consumer timeouts, as for dispatch (locally WEBHOOK_QUEUE_SETTINGS' 60 s: no Lambda poller there).
    visibilityTimeout: Duration.seconds(Math.max(WEBHOOK_QUEUE_SETTINGS.visibilityTimeoutSeconds, CONSUMER_TIMEOUT.toSeconds() * SQS_VISIBILITY_PER_TIMEOUT)),
    deadLetterQueue: { queue: webhookDeadLetters, maxReceiveCount: WEBHOOK_QUEUE_SETTINGS.maxReceiveCount },
  });
  const knowledgeDeadLetters = new sqs.Queue(scope, 'KnowledgeIngestionDeadLetters', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const knowledgeQueue = new sqs.Queue(scope, 'KnowledgeIngestion', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(KNOWLEDGE_QUEUE_SETTINGS.visibilityTimeoutSeconds),
    deadLetterQueue: { queue: knowledgeDeadLetters, maxReceiveCount: KNOWLEDGE_QUEUE_SETTINGS.maxReceiveCount },
  });
  const agentTestDeadLetters = new sqs.Queue(scope, 'AgentTestRunsDeadLetters', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  const agentTestQueue = new sqs.Queue(scope, 'AgentTestRuns', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(AGENT_TEST_QUEUE_SETTINGS.visibilityTimeoutSeconds),
    deadLetterQueue: { queue: agentTestDeadLetters, maxReceiveCount: AGENT_TEST_QUEUE_SETTINGS.maxReceiveCount },
  });
  return { dispatchQueue, dispatchDeadLetters, webhookQueue, webhookDeadLetters, knowledgeQueue, knowledgeDeadLetters, agentTestQueue, agentTestDeadLetters };
}

/** The data key, the Twilio account and the vendor keys. */
export interface PlatformSecrets {
  readonly dataKey: secretsmanager.Secret;
  readonly twilioCredentials: secretsmanager.ISecret;
  readonly vendorKeys: secretsmanager.ISecret;
}

/** Creates the secrets, or imports the Twilio and vendor ones an operator named (PlatformStackProps). */
export function platformSecrets(scope: Construct, options: { readonly twilioSecretArn?: string; readonly vendorKeysSecretArn?: string }): PlatformSecrets {
  const dataKey = new secretsmanager.Secret(scope, 'DataKey', {
    description: 'AES-256 data key (64 hex characters) sealing stored secrets; never rotate in place: sealed values would stop opening',
    generateSecretString: DATA_KEY_SECRET,
    // Losing the key makes every sealed value in the retained table unreadable.
    removalPolicy: RemovalPolicy.RETAIN,
  });

  const twilioCredentials =
    options.twilioSecretArn === undefined
      ? new secretsmanager.Secret(scope, 'TwilioCredentials', {
          description: 'Platform Twilio account as JSON {"accountSid": "AC...", "authToken": "..."}: put the real values after the first deploy',
          // A placeholder the handlers refuse (empty accountSid) until an operator puts the real account in.
          generateSecretString: { secretStringTemplate: JSON.stringify({ accountSid: '' }), generateStringKey: 'authToken' },
          removalPolicy: RemovalPolicy.RETAIN,
        })
      : secretsmanager.Secret.fromSecretCompleteArn(scope, 'TwilioCredentials', options.twilioSecretArn);

  const vendorKeys =
    options.vendorKeysSecretArn === undefined
      ? new secretsmanager.Secret(scope, 'VendorKeys', {
          description: 'Platform vendor keys as JSON {"OPENAI_API_KEY": "...", "DEEPGRAM_API_KEY": "...", ...}: fields named as in lib/config.ts (docs/deploy.md)',
          // An empty object, not a generated value: a field the platform does not know would stop the task.
          secretObjectValue: {},
          removalPolicy: RemovalPolicy.RETAIN,
        })
      : secretsmanager.Secret.fromSecretCompleteArn(scope, 'VendorKeys', options.vendorKeysSecretArn);
  return { dataKey, twilioCredentials, vendorKeys };
}
