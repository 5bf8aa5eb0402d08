import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Config } from '../../config.js';

/**
 * Anything that runs platform code: a Lambda function, or (later) the streaming service's Fargate task, seen
 * through an adapter `{ grantPrincipal: taskRole, addEnvironment: (k, v) => container.addEnvironment(k, v) }`.
 * Each `bind*` below sets the variable lib/config.ts reads AND grants the matching IAM in one call
 * (STYLE 16), so a resource can never be reachable without its name, nor named without being reachable.
 */
export interface BindTarget extends iam.IGrantable {
  addEnvironment(name: string, value: string): unknown;
}

/** Only names lib/config.ts parses: renaming a variable there breaks the build here, not a deployment. */
type EnvName = keyof Config;

const setEnv = (target: BindTarget, name: EnvName, value: string): void => {
  target.addEnvironment(name, value);
};

/** What a handler does with the single table. */
export type TableAccess = 'read' | 'readWrite';

/** Binds the single table: TABLE_NAME plus read-only or read-write data-plane actions (table and its indexes). */
export function bindTable(target: BindTarget, table: dynamodb.ITableV2, access: TableAccess): void {
  setEnv(target, 'TABLE_NAME', table.tableName);
  if (access === 'read') table.grantReadData(target);
  else table.grantReadWriteData(target);
}

/**
 * Lets a handler count requests in rate-limit windows (lib/store/rate-limits.ts): UpdateItem only, and only
 * on items whose partition key starts with `RATE#`, so a read-only route stays read-only for everything
 * else; and the `lastUsedAt` attribute of API key lookup items (bindKeyLastUsed).
 * Call after bindTable (it needs TABLE_NAME).
 */
export function bindRateLimits(target: BindTarget, table: dynamodb.ITableV2): void {
  target.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
    }),
  );
  bindKeyLastUsed(target, table);
}

/**
 * Lets whoever authenticates keys (route functions, the API's key authorizer) record a key's last use on its
 * lookup item (docs/dashboard.md): UpdateItem on `APIKEY#…` items, that one attribute only.
 */
export function bindKeyLastUsed(target: BindTarget, table: dynamodb.ITableV2): void {
  target.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastUsedAt'] },
      },
    }),
  );
}

/**
 * Binds the table for the sweep of abandoned streams (lib/services/abandoned-streams.ts): TABLE_NAME, Query
 * on the live-stream index only (no Scan, no table Query), and the item actions settling a call takes (read
 * the call; one transaction of updates, puts and condition checks; the history record) on workspace items
 * only (`WS#…`). No DeleteItem, no batch operations.
 */
export function bindStreamSweep(target: BindTarget, table: dynamodb.ITableV2, indexName: string): void {
  setEnv(target, 'TABLE_NAME', table.tableName);
  target.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/${indexName}`] }),
  );
  target.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      // Query: the workspace's webhook endpoints, read when the settled call's `call.ended` is published.
      actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem', 'dynamodb:Query'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*'] } },
    }),
  );
}

/**
 * What a handler does with recordings. `read` is also what presigning a download needs: a presigned URL
 * carries the signer's permissions.
 */
export type RecordingsAccess = 'read' | 'write' | 'readWrite';

/** Binds the recordings bucket: BUCKET_NAME plus object access, optionally narrowed to a key pattern. */
export function bindRecordings(
  target: BindTarget,
  bucket: s3.IBucket,
  access: RecordingsAccess,
  keyPattern = '*',
): void {
  setEnv(target, 'BUCKET_NAME', bucket.bucketName);
  if (access === 'read') bucket.grantRead(target, keyPattern);
  else if (access === 'write') bucket.grantPut(target, keyPattern);
  else bucket.grantReadWrite(target, keyPattern);
}

/**
 * What a component does with the call-dispatch queue. A Lambda consumer gets its rights from its
 * SqsEventSource instead; `consume` is for pollers such as a container.
 */
export type QueueAccess = 'send' | 'consume';

/** Binds the call-dispatch queue: DISPATCH_QUEUE_URL plus send or consume rights. */
export function bindDispatchQueue(target: BindTarget, queue: sqs.IQueue, access: QueueAccess): void {
  setEnv(target, 'DISPATCH_QUEUE_URL', queue.queueUrl);
  if (access === 'send') queue.grantSendMessages(target);
  else queue.grantConsumeMessages(target);
}

/**
 * Binds the webhook-delivery queue: WEBHOOK_QUEUE_URL plus send (publishing an event queues its deliveries).
 * The consumer also gets the dead letters (WEBHOOK_DLQ_URL plus send), where deliveries that gave up are
 * parked; its receive rights come from its SqsEventSource.
 */
export function bindWebhookQueue(target: BindTarget, queue: sqs.IQueue, deadLetters?: sqs.IQueue): void {
  setEnv(target, 'WEBHOOK_QUEUE_URL', queue.queueUrl);
  queue.grantSendMessages(target);
  if (!deadLetters) return;
  setEnv(target, 'WEBHOOK_DLQ_URL', deadLetters.queueUrl);
  deadLetters.grantSendMessages(target);
}

/**
 * Binds the platform's Twilio credentials (JSON `{accountSid, authToken}`, read by lib/deps.ts):
 * TWILIO_SECRET_ARN plus read. Only handlers that act for the platform's own Twilio account get it.
 */
/**
 * Binds knowledge bases (docs/knowledge.md): the bucket's `workspaces/*` objects (sources and index
 * segments, read and written) and the ingestion queue (KNOWLEDGE_QUEUE_URL, send).
 */
export function bindKnowledge(target: BindTarget, bucket: s3.IBucket, queue: sqs.IQueue): void {
  bindRecordings(target, bucket, 'readWrite', 'workspaces/*');
  setEnv(target, 'KNOWLEDGE_QUEUE_URL', queue.queueUrl);
  queue.grantSendMessages(target);
}

/** Binds the agent-test run queue (docs/agent-tests.md): AGENT_TEST_QUEUE_URL plus send (starting a run queues it). */
export function bindAgentTestQueue(target: BindTarget, queue: sqs.IQueue): void {
  setEnv(target, 'AGENT_TEST_QUEUE_URL', queue.queueUrl);
  queue.grantSendMessages(target);
}

export function bindTwilioCredentials(target: BindTarget, secret: secretsmanager.ISecret): void {
  setEnv(target, 'TWILIO_SECRET_ARN', secret.secretArn);
  secret.grantRead(target);
}

/** Binds the data-key secret that lib/store/secret-box.ts seals with: SECRET_KEY_ARN plus read. */
export function bindDataKey(target: BindTarget, secret: secretsmanager.ISecret): void {
  setEnv(target, 'SECRET_KEY_ARN', secret.secretArn);
  secret.grantRead(target);
}
