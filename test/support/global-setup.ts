import type { TestProject } from 'vitest/node';
import { startStores, type LocalStores } from '../../lib/local/platform.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stores: {
      dynamodb: string;
      s3: string;
      s3Credentials: { accessKeyId: string; secretAccessKey: string };
      sqs: string;
      queueUrl: string;
      deadLetterQueueUrl: string;
      cognito: { endpoint: string; userPoolId: string; clientId: string; issuer: string; dataDir: string };
    };
  }
}

let stores: LocalStores | undefined;

/** Starts the local stores once per test run (DynamoDB Local in memory, cognito-local in a temporary directory). */
export async function setup(project: TestProject): Promise<void> {
  stores = await startStores(undefined, 'voice-agents-recordings');
  project.provide('stores', {
    dynamodb: stores.dynamo.endpoint,
    s3: stores.s3.endpoint,
    s3Credentials: stores.s3.credentials,
    sqs: stores.sqs.endpoint,
    queueUrl: stores.sqs.queueUrl,
    deadLetterQueueUrl: stores.sqs.deadLetterQueueUrl,
    cognito: {
      endpoint: stores.cognito.endpoint,
      userPoolId: stores.cognito.userPoolId,
      clientId: stores.cognito.clientId,
      issuer: stores.cognito.issuer,
      dataDir: stores.cognito.dataDir,
    },
  });
}

export async function teardown(): Promise<void> {
  await stores?.stop();
}
