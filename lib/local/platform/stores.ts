import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startCognitoLocal, type LocalCognito } from './cognito.js';
import { startDynamoLocal, type LocalDynamo } from './dynamodb.js';
import { startS3Local, type LocalS3 } from './s3.js';
import { startSqsLocal, type LocalSqs } from './sqs.js';

export interface LocalStores {
  readonly dynamo: LocalDynamo;
  readonly s3: LocalS3;
  readonly sqs: LocalSqs;
  /** Dashboard sign-in (docs/dashboard.md). */
  readonly cognito: LocalCognito;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local, s3rver, the SQS server and cognito-local; `dataDir` undefined keeps DynamoDB in
 * memory and cognito-local in a temporary directory. With a `dataDir` (npm start) the sign-up and reset
 * codes cognito-local would email are printed on stderr.
 */
export async function startStores(dataDir: string | undefined, bucket: string): Promise<LocalStores> {
  const s3Dir = dataDir ? join(dataDir, 's3') : join(process.cwd(), '.test-data', `s3-${process.pid}-${Date.now()}`);
  const printCodes = dataDir ? (line: string) => process.stderr.write(line) : undefined;
  const [dynamo, s3, sqs, cognito] = await Promise.all([
    startDynamoLocal(dataDir ? join(dataDir, 'dynamodb') : undefined),
    startS3Local(s3Dir, bucket),
    startSqsLocal('call-dispatch'),
    startCognitoLocal(dataDir ? join(dataDir, 'cognito') : undefined, printCodes),
  ]);
  return {
    dynamo,
    s3,
    sqs,
    cognito,
    async stop() {
      await Promise.all([dynamo.stop(), s3.stop(), sqs.stop(), cognito.stop()]);
      if (!dataDir) await rm(s3Dir, { recursive: true, force: true });
    },
  };
}
