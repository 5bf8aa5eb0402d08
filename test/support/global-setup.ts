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

/**
 * The run's stores, on the main process's global: the two connected projects (shared and isolated worker
 * processes) both name this setup, and vitest may load it once per project. They share one set of stores.
 */
const shared = globalThis as typeof globalThis & { testStores?: { started: Promise<LocalStores>; users: number } };

/** Starts the local stores once per test run (DynamoDB Local in memory, cognito-local in a temporary directory). */
export async function setup(project: TestProject): Promise<void> {
  shared.testStores ??= { started: startStores(undefined, 'voice-agents-recordings'), users: 0 };
  shared.testStores.users += 1;
  const stores = await shared.testStores.started;
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
  const run = shared.testStores;
  if (!run || (run.users -= 1) > 0) return;
  shared.testStores = undefined;
  await (await run.started).stop();
}
