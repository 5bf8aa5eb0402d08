import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * How a running `npm start` is found by other processes (the admin CLI). It writes what it is reachable at
 * twice: `DATA_DIR/endpoints.json`, for a CLI given the same DATA_DIR, and one file per instance in a
 * per-user directory, so a CLI started from another directory or with another DATA_DIR can still find it
 * (and refuse to open a second store in the wrong place). A file outlives a killed process, so a reader
 * believes an entry only when its process is alive and its DynamoDB answers.
 */
export interface PlatformEndpoints {
  readonly pid: number;
  readonly dynamodb: string;
  /** The COGNITO_* environment of its cognito-local (the CLI's `user create` signs users up there). */
  readonly cognito?: Record<string, string>;
  readonly table: string;
  readonly baseUrl: string;
  /** Absolute DATA_DIR of the instance. */
  readonly dataDir: string;
}

/** Where `npm start` tells a CLI with the same DATA_DIR how to reach its stores. */
export const endpointsFile = (dataDir: string) => join(dataDir, 'endpoints.json');

/**
 * One directory per user, so two users of one machine never see each other's platforms.
 * PLATFORM_REGISTRY_DIR moves it (tests use their own, so parallel test files cannot see each other).
 */
export const registryDir = () =>
  process.env.PLATFORM_REGISTRY_DIR ?? join(tmpdir(), `voice-agent-platform-${process.getuid?.() ?? 'user'}`);

const registryFile = (e: PlatformEndpoints) => join(registryDir(), `${e.pid}-${new URL(e.baseUrl).port || '80'}.json`);

/** Records a running instance in both places; the returned function removes both records. */
export async function registerInstance(endpoints: PlatformEndpoints): Promise<() => Promise<void>> {
  const text = JSON.stringify(endpoints);
  await writeFile(endpointsFile(endpoints.dataDir), text);
  // The registry is a convenience: a platform that cannot write it still runs, and the CLI then relies on
  // DATA_DIR alone.
  const listed = await mkdir(registryDir(), { recursive: true, mode: 0o700 })
    .then(() => writeFile(registryFile(endpoints), text, { mode: 0o600 }))
    .then(() => true, () => false);
  return async () => {
    await rm(endpointsFile(endpoints.dataDir), { force: true });
    if (listed) await rm(registryFile(endpoints), { force: true });
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function dynamoAnswers(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await client.send(new ListTablesCommand({}), { abortSignal: AbortSignal.timeout(3_000) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

function parseEndpoints(text: string, dataDir?: string): PlatformEndpoints | undefined {
  try {
    const e = JSON.parse(text) as Partial<PlatformEndpoints>;
    if (typeof e.pid !== 'number' || typeof e.dynamodb !== 'string' || typeof e.table !== 'string' || typeof e.baseUrl !== 'string') return undefined;
    // Files written before the dataDir field existed name their directory by where they are.
    const dir = typeof e.dataDir === 'string' ? e.dataDir : dataDir;
    const cognito = e.cognito && typeof e.cognito === 'object' ? { cognito: e.cognito } : {};
    return dir ? { pid: e.pid, dynamodb: e.dynamodb, ...cognito, table: e.table, baseUrl: e.baseUrl, dataDir: resolve(dir) } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the recorded instance is running now: its process alive and its DynamoDB answering. */
export async function isLive(e: PlatformEndpoints): Promise<boolean> {
  return processAlive(e.pid) && (await dynamoAnswers(e.dynamodb));
}

/** The live platform whose DATA_DIR is `dataDir`, if any. */
export async function runningAt(dataDir: string): Promise<PlatformEndpoints | undefined> {
  const text = await readFile(endpointsFile(dataDir), 'utf8').catch(() => undefined);
  const found = text === undefined ? undefined : parseEndpoints(text, dataDir);
  return found && (await isLive(found)) ? found : undefined;
}

/** Every live platform of this user, whatever its DATA_DIR. */
export async function runningInstances(): Promise<PlatformEndpoints[]> {
  const names = await readdir(registryDir()).catch(() => [] as string[]);
  const found = await Promise.all(
    names
      .filter((n) => n.endsWith('.json'))
      .map(async (n) => {
        const text = await readFile(join(registryDir(), n), 'utf8').catch(() => undefined);
        const e = text === undefined ? undefined : parseEndpoints(text);
        // A platform that was killed leaves its file behind; the next reader removes it.
        if (e && !processAlive(e.pid)) await rm(join(registryDir(), n), { force: true });
        return e && (await isLive(e)) ? e : undefined;
      }),
  );
  return found.filter((e): e is PlatformEndpoints => e !== undefined);
}

/** Whether `npm start` ever kept data in `dataDir` (its DynamoDB files, or a record of a past run). */
export async function usedByPlatform(dataDir: string): Promise<boolean> {
  const dynamo = await readdir(join(dataDir, 'dynamodb')).catch(() => [] as string[]);
  if (dynamo.length > 0) return true;
  return stat(endpointsFile(dataDir)).then(() => true, () => false);
}
