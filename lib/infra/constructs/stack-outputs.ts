import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { PlatformDomains } from './domains.js';
import type { Monitoring } from './monitoring.js';
import type { StreamingService } from './streaming-service.js';

/** What the stack's outputs name (the PlatformStack itself, seen through what its outputs read). */
export interface OutputSources extends Stack {
  readonly publicBaseUrl: string;
  readonly table: dynamodb.TableV2;
  readonly recordings: s3.Bucket;
  readonly dispatchQueue: sqs.Queue;
  readonly webhookDeadLetters: sqs.Queue;
  readonly streamUrl: string;
  readonly dataKey: secretsmanager.Secret;
  readonly vendorKeys: secretsmanager.ISecret;
  readonly twilioCredentials: secretsmanager.ISecret;
  readonly monitoring: Monitoring;
  readonly streaming: StreamingService;
  readonly domains: PlatformDomains;
  readonly api: apigw.HttpApi;
}

/** The stack's outputs: what an operator and the admin CLI need after a deploy (docs/deploy.md). */
export function addStackOutputs(stack: OutputSources): void {
  new CfnOutput(stack, 'ApiUrl', { value: stack.publicBaseUrl, description: 'Base URL of the API and docs (/docs)' });
  new CfnOutput(stack, 'TableName', { value: stack.table.tableName, description: 'TABLE_NAME for the admin CLI' });
  new CfnOutput(stack, 'RecordingsBucketName', { value: stack.recordings.bucketName });
  new CfnOutput(stack, 'DispatchQueueUrl', { value: stack.dispatchQueue.queueUrl });
  new CfnOutput(stack, 'WebhookDeadLettersUrl', { value: stack.webhookDeadLetters.queueUrl, description: 'Webhook deliveries that gave up (inspect, or replay from the API)' });
  new CfnOutput(stack, 'StreamUrl', { value: stack.streamUrl, description: 'Twilio Media Streams URL (STREAM_URL); ws:// without a certificate is for testing only' });
  new CfnOutput(stack, 'DataKeySecretArn', { value: stack.dataKey.secretArn, description: 'SECRET_KEY_ARN for the admin CLI' });
  new CfnOutput(stack, 'VendorKeysSecretArn', { value: stack.vendorKeys.secretArn, description: 'Put the platform vendor keys here: JSON {"OPENAI_API_KEY": "...", ...}, then restart the streaming service' });
  new CfnOutput(stack, 'AlarmTopicArn', { value: stack.monitoring.topic.topicArn, description: 'Alarms publish here (subscribe more endpoints as needed)' });
  new CfnOutput(stack, 'DashboardName', { value: stack.monitoring.dashboard.dashboardName });
  new CfnOutput(stack, 'StreamingClusterName', { value: stack.streaming.cluster.clusterName });
  new CfnOutput(stack, 'StreamingServiceName', { value: stack.streaming.service.serviceName, description: 'aws ecs update-service --force-new-deployment after changing the vendor keys' });
  new CfnOutput(stack, 'StreamingLoadBalancerDns', { value: stack.streaming.loadBalancer.loadBalancerDnsName, description: 'CNAME the stream domain here when its DNS is not in Route 53' });
  if (stack.domains.apiDomainName) {
    new CfnOutput(stack, 'ApiDomainTarget', { value: stack.domains.apiDomainName.regionalDomainName, description: 'CNAME the API domain here when its DNS is not in Route 53' });
  }
  new CfnOutput(stack, 'TwilioSecretArn', { value: stack.twilioCredentials.secretArn, description: 'Put the platform Twilio account here: JSON {accountSid, authToken}' });
}
