import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { loadConfig, type Config } from './config.js';
import { createDb, type Db } from './store/dynamo.js';
import { createSecretBox, loadOrCreateKeyFile, type SecretBox } from './store/secret-box.js';

/** Everything a handler needs, built once per cold start (never at a handler's module scope). */
export interface Deps {
  readonly config: Config;
  readonly db: Db;
  readonly secrets: SecretBox;
}

async function loadDataKey(config: Config): Promise<Buffer> {
  if (config.SECRET_KEY_ARN) {
    const sm = new SecretsManagerClient({ region: config.AWS_REGION });
    const out = await sm.send(new GetSecretValueCommand({ SecretId: config.SECRET_KEY_ARN }));
    if (!out.SecretString) throw new Error('The data-key secret is empty');
    return Buffer.from(out.SecretString.trim(), 'base64');
  }
  if (config.SECRET_KEY_FILE) return loadOrCreateKeyFile(config.SECRET_KEY_FILE);
  throw new Error('Set SECRET_KEY_ARN (AWS) or SECRET_KEY_FILE (local) so secrets can be sealed');
}

/** Builds the dependencies from a parsed config. */
export async function buildDeps(config: Config): Promise<Deps> {
  const db = createDb({ table: config.TABLE_NAME, region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT });
  return { config, db, secrets: createSecretBox(await loadDataKey(config)) };
}

let cached: Promise<Deps> | undefined;

/** The process-wide dependencies, from the environment, built on first use. */
export function getDeps(): Promise<Deps> {
  cached ??= buildDeps(loadConfig()).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
