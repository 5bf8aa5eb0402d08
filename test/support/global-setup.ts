import { existsSync, readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import type { LocalStores } from '../../lib/local/platform/stores.js';

/** What a test file needs to reach the run's stores (test/support/platform.ts, `sharedStores`). */
export interface RunStores {
  dynamodb: string;
  s3: string;
  s3Credentials: { accessKeyId: string; secretAccessKey: string };
  sqs: string;
  queueUrl: string;
  deadLetterQueueUrl: string;
  cognito: { endpoint: string; userPoolId: string; clientId: string; issuer: string; dataDir: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    stores: RunStores;
  }
}

/** The addresses of started stores, as the test files get them. */
export function runStores(stores: LocalStores): RunStores {
  return {
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
  };
}

/** How long global setup waits for `npm test`'s stores (DynamoDB Local's JVM on a busy machine). */
const STORES_FILE_WAIT_MS = 120_000;

/**
 * The stores `npm test` (bin/test.ts) started while vitest itself was starting: it writes their addresses, or
 * why they failed, to the file `TEST_STORES_FILE` names.
 */
async function storesFromFile(file: string): Promise<RunStores> {
  for (const end = Date.now() + STORES_FILE_WAIT_MS; !existsSync(file); ) {
    if (Date.now() > end) throw new Error(`no stores after ${STORES_FILE_WAIT_MS / 1000} s (${file})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const written = JSON.parse(readFileSync(file, 'utf8')) as { stores: RunStores } | { error: string };
  if ('error' in written) throw new Error(`the stores did not start: ${written.error}`);
  return written.stores;
}

/**
 * The run's stores, on the main process's global: the two connected projects (shared and isolated worker
 * processes) both name this setup, and vitest may load it once per project. They share one set of stores:
 * `npm test`'s when it started them (TEST_STORES_FILE), else started here (DynamoDB Local in memory,
 * cognito-local in a temporary directory) and stopped by the last teardown.
 */
const shared = globalThis as typeof globalThis & {
  testStores?: { provided: Promise<RunStores>; started?: Promise<LocalStores>; users: number };
};

export async function setup(project: TestProject): Promise<void> {
  if (!shared.testStores) {
    const file = process.env.TEST_STORES_FILE;
    if (file) shared.testStores = { provided: storesFromFile(file), users: 0 };
    else {
      // Loaded only here: this file runs in vitest's main process, whose module runner resolves the AWS SDK
      // to its ES builds (not Node's), thousands of modules transformed and run there; under `npm test`
      // the stores come from TEST_STORES_FILE and none of it is loaded.
      const { startStores } = await import('../../lib/local/platform/stores.js');
      const started = startStores(undefined, 'voice-agents-recordings');
      shared.testStores = { provided: started.then(runStores), started, users: 0 };
    }
  }
  shared.testStores.users += 1;
  project.provide('stores', await shared.testStores.provided);
}

export async function teardown(): Promise<void> {
  const run = shared.testStores;
  if (!run || (run.users -= 1) > 0) return;
  shared.testStores = undefined;
  if (run.started) await (await run.started).stop();
}
